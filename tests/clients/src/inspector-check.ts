// Every tool of the MCP server through the official MCP Inspector CLI (`inspector --cli`), errors
// included, over streamable HTTP or stdio. The Inspector validates each answer's
// structuredContent against the tool's outputSchema and reports a tool error (isError) with exit
// code 5; this script checks both, and the text a model reads.
//
//   node build/inspector-check.js --http http://127.0.0.1:PORT/mcp
//   node build/inspector-check.js --stdio target/release/minimax-move

import { spawnSync } from "node:child_process";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const [mode, where] = process.argv.slice(2);
if ((mode !== "--http" && mode !== "--stdio") || where === undefined) {
  console.error("usage: inspector-check.js --http URL | --stdio BINARY");
  process.exit(2);
}
const target = mode === "--http" ? [where] : [where, "mcp"];
const transport = mode === "--http" ? "HTTP" : "stdio";

let passed = 0;
let failed = 0;

function check(name: string, ok: boolean, got?: unknown): void {
  if (ok) {
    passed += 1;
  } else {
    failed += 1;
    console.error(`FAIL ${transport} ${name}: ${JSON.stringify(got)}`);
  }
}

interface Run {
  status: number | null;
  output: { [key: string]: Json };
  stderr: string;
}

/** Runs the Inspector CLI with these method arguments; its JSON output parsed. */
function inspector(args: string[]): Run {
  const run = spawnSync(
    "inspector",
    ["--cli", "--format", "json", "--connect-timeout", "10000", ...target, ...args],
    { encoding: "utf8", timeout: 60_000 },
  );
  let output: { [key: string]: Json } = {};
  try {
    output = JSON.parse(run.stdout) as { [key: string]: Json };
  } catch {
    output = { unparsed: run.stdout };
  }
  return { status: run.status, output, stderr: run.stderr };
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: { [key: string]: Json };
  content?: { type: string; text?: string }[];
}

function call(tool: string, args: { [key: string]: Json }): { status: number | null; result: ToolResult } {
  const run = inspector([
    "--method", "tools/call", "--tool-name", tool, "--tool-args-json", JSON.stringify(args),
  ]);
  return { status: run.status, result: (run.output["result"] ?? {}) as ToolResult };
}

const text = (result: ToolResult): string => result.content?.[0]?.text ?? "";

// The tool list, with the Inspector's portability checks of the schemas in full.
{
  const run = inspector(["--method", "tools/list", "--strict"]);
  const tools = ((run.output["result"] as { tools?: { name: string }[] } | undefined)?.tools ?? [])
    .map((t) => t.name);
  check("tools/list", run.status === 0 && tools.join() === "suggest_move,apply_move,game_status,review_game,trace_search,explain_move", run);
  check("tools/list --strict finds no portability problem", !/Warning|Issue:/.test(run.stderr), run.stderr);
}

// Answers: exit 0, structured content valid against the output schema, and the text.
{
  const seed: Json = ["O", 1, "X", "X", 4, "X", 6, "O", "O"];
  const { status, result } = call("suggest_move", { board: seed, moves: true });
  check("suggest_move", status === 0 && result.structuredContent?.["index"] === 4, result);
  check(
    "suggest_move text: score, outcome, move table",
    text(result).includes("X plays 4: score 9, outcome win in 1 ply.") &&
      text(result).includes("Moves (index: score, outcome): 1: -8, loss in 2 plies;"),
    text(result),
  );
  const nulls = call("suggest_move", {
    board: "O.XX.X.OO", player: null, scoring: null, moves: null, rows: null, cols: null, k: null,
    max_depth: null, time_limit_ms: null, difficulty: null, tie_break: null, seed: null,
  });
  check("suggest_move with every option null", nulls.status === 0 && nulls.result.structuredContent?.["index"] === 4, nulls);
  const big = call("suggest_move", { board: ".".repeat(16), rows: 4, cols: 4, k: 4, time_limit_ms: 200 });
  check("suggest_move on 4 x 4", big.status === 0 && typeof big.result.structuredContent?.["index"] === "number", big);
}
{
  const { status, result } = call("apply_move", { board: "XX.OO....", index: 2 });
  const answer = result.structuredContent ?? {};
  check("apply_move wins", status === 0 && answer["to_move"] === null && (answer["status"] as { state?: string })?.state === "win", result);
  check("apply_move text", text(result).startsWith("X played cell 2. X wins"), text(result));
  const old = call("apply_move", { board: ".........", cell: 4 });
  check("apply_move reads `cell`, the former name", old.status === 0 && old.result.structuredContent?.["index"] === 4 && old.result.structuredContent?.["to_move"] === "O", old);
}
{
  const { status, result } = call("game_status", { board: "XXXOO...." });
  check("game_status of a won game", status === 0 && result.structuredContent?.["to_move"] === null, result);
}

// Errors: exit 5 (a tool error), no structured content, `code: detail` as text.
for (const [tool, args, start] of [
  ["apply_move", { board: "XO.......", index: 0 }, "invalid_move: cell 0 is already taken"],
  ["suggest_move", { board: "XXXOO...." }, "game_over: "],
  ["suggest_move", { board: ".........", scorng: "depth" }, "unknown_field: "],
  ["game_status", { board: "OOO......" }, "impossible_position: "],
  ["game_status", { board: "Z".repeat(1000) }, "invalid_cell: 1000 characters"],
] as [string, { [key: string]: Json }, string][]) {
  const { status, result } = call(tool, args);
  check(
    `${tool} error ${start}`,
    status === 5 && result.isError === true && result.structuredContent === undefined && text(result).startsWith(start),
    { status, result },
  );
  check(`${tool} error text is short`, text(result).split("\n").length <= 22, text(result));
}
{
  const { status } = call("no_such_tool", {});
  check("an unknown tool is an error", status !== 0, status);
}

console.log(`inspector-${transport.toLowerCase()}: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
