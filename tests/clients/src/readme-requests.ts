// The README's requests (and those of docs/api.md) through openapi-fetch, typed by the types that
// openapi-typescript generates from openapi.yaml with its default flags. Compiled with
// `tsc --strict`, which is half the check: a body the schema does not allow (the bare board, a
// null option) or an answer field the schema leaves optional (`plies`, `winner`, `to_move`) would
// not compile. Then run against a live server: the other half.
//
//   node build/readme-requests.js http://127.0.0.1:PORT

import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type Schemas = components["schemas"];
type Mark = Schemas["Mark"];

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8080";
// The client as its documentation writes it, with no media type narrowing: every answer of the
// routes below has one JSON type (the stream of events is an operation of its own,
// POST /v1/move/stream).
const client = createClient<paths>({ baseUrl });
type MoveResponse = Schemas["MoveResponse"];

let passed = 0;
let failed = 0;

function check(name: string, ok: boolean, got?: unknown): void {
  if (ok) {
    passed += 1;
  } else {
    failed += 1;
    console.error(`FAIL ${name}: ${JSON.stringify(got)}`);
  }
}

/** The answer of a request that must succeed. */
function must<T>(result: { data?: T; error?: unknown }, name: string): T {
  if (result.data === undefined) {
    throw new Error(`${name}: no answer, error ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

function scores(moves: Schemas["MoveEntry"][]): string {
  return moves.map((m) => `${m.index}:${m.score}`).join(" ");
}

const seedBoard: Schemas["Board"] = ["O", 1, "X", "X", 4, "X", 6, "O", "O"];

// The freeCodeCamp board, with the move table, written as a TypeScript user writes it: the
// answer assigned to its type, no cast, no narrowing of a media type.
{
  const { data: answer, error } = await client.POST("/v1/move", {
    body: { board: seedBoard, moves: true },
  });
  if (error) {
    throw new Error(`seed board: ${error.code}: ${error.detail}`);
  }
  const data: MoveResponse = answer;
  check("seed board: index 4, score 9", data.index === 4 && data.score === 9, data);
  // Always present, so typed without `undefined`: these lines compile only if `required` says so.
  const plies: number | null = data.plies;
  const winner: Mark | null = data.status.winner;
  check("seed board: a win in 1 ply, by X", plies === 1 && winner === "X", data);
  check("seed board: the move table", scores(data.moves ?? []) === "1:-8 4:9 6:-8", data);
  check("seed board: the line of play", JSON.stringify(data.pv) === "[4]", data);
}

// Classic +10/-10/0 scoring: index 4, score 10.
{
  const { data } = await client.POST("/v1/move", {
    body: { board: seedBoard, scoring: "classic", moves: true },
  });
  check("classic: index 4, score 10", data?.index === 4 && data.score === 10, data);
  check("classic: the move table", scores(data?.moves ?? []) === "1:-10 4:10 6:-10", data);
}

// O started, X to move: the bare board as the whole body; X blocks at 2, score -6.
{
  const { data } = await client.POST("/v1/move", { body: [0, 1, 2, 3, 4, "O", 6, "X", "O"] });
  check("bare array: index 2, score -6", data?.index === 2 && data.score === -6, data);
  check("bare array: a loss in 4 plies", data?.outcome === "loss" && data.plies === 4, data);
}

// The compact string form, and the GET link.
{
  const { data } = await client.POST("/v1/move", { body: { board: "XXOOX.O.." } });
  if (data) {
    const typed: MoveResponse = data;
    check("compact: a typed answer", typed.index === 7, typed);
  }
  check("compact: the board comes back compact", typeof data?.board === "string", data);
  const { data: linked } = await client.GET("/v1/move", {
    params: { query: { board: "O.XX.X.OO", moves: true } },
  });
  check("GET: index 4 with the table", linked?.index === 4 && linked.moves?.length === 3, linked);
}

// Four in a row on 5 x 5, half a second of search at most: index 0, a proven draw.
{
  const { data } = await client.POST("/v1/move", {
    body: { board: ".........................", rows: 5, cols: 5, k: 4, time_limit_ms: 500 },
  });
  check("5 x 5: index 0, a draw", data?.index === 0 && data.outcome === "draw", data);
}

// Every optional field null, as OpenAI's strict function calling sends them: the defaults.
{
  const { data } = await client.POST("/v1/move", {
    body: {
      board: "O.XX.X.OO", player: null, scoring: null, moves: null, rows: null, cols: null,
      k: null, max_depth: null, time_limit_ms: null, difficulty: null, tie_break: null, seed: null,
    },
  });
  check("nulls: the default answer", data?.index === 4 && data.score === 9 && !data.moves, data);
}

// A finished game is a 422 problem with its result.
{
  const { data, error, response } = await client.POST("/v1/move", { body: { board: "XXXOO...." } });
  check("game over: 422", response.status === 422 && data === undefined, response.status);
  check(
    "game over: code, winner, line",
    error?.code === "game_over" && error.winner === "X" && JSON.stringify(error.line) === "[0,1,2]",
    error,
  );
}

// Many bad cells: the first 20 listed, the rest counted.
{
  const { error } = await client.POST("/v1/move", { body: { board: "Z".repeat(1000) } });
  check(
    "bad cells: 20 listed, 980 counted",
    error?.code === "invalid_cell" && error.errors?.length === 20 && error.errors_omitted === 980,
    error,
  );
}

// Play one move, read a board (docs/api.md).
{
  const data = must(
    await client.POST("/v1/play", { body: { board: "XX.OO....", index: 2 } }),
    "play",
  );
  const next: Mark | null = data.to_move;
  check("play: X wins, nobody moves next", data.status.state === "win" && next === null, data);
  const status = must(
    await client.POST("/v1/status", { body: { board: "X........" } }),
    "status",
  );
  const toMove: Mark | null = status.to_move;
  check("status: O to move", toMove === "O" && status.legal_moves.length === 8, status);
}

console.log(`readme-requests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
