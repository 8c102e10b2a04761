"""Black-box checks of the MCP server with the official Python MCP SDK (PyPI `mcp`).

    python mcp_check.py --url http://127.0.0.1:PORT/mcp
    python mcp_check.py --stdio target/release/minimax-move

Lists the tools and calls every one: suggest_move against a plain minimax written here (no code
shared with the server) on random 3 x 3 positions, apply_move and game_status on won, drawn and
running games, bad input as tool errors reading `code: detail`, and a 15 x 15 call.
"""

import argparse
import asyncio
import random
import sys

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message, file=sys.stderr)


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def value(board, mover, plies=1):
    """Depth scoring from the mover's view: a win W - plies, a loss plies - W (W = 10)."""
    best = None
    for i in range(9):
        if board[i] != ".":
            continue
        board[i] = mover
        if winner(board) == mover:
            score = 10 - plies
        elif "." not in board:
            score = 0
        else:
            score = -value(board, "O" if mover == "X" else "X", plies + 1)
        board[i] = "."
        best = score if best is None else max(best, score)
    return best


def oracle(board, mover):
    """(best index, score) with the lowest index among equals."""
    best = None
    for i in range(9):
        if board[i] != ".":
            continue
        board[i] = mover
        if winner(board) == mover:
            score = 9
        elif "." not in board:
            score = 0
        else:
            score = -value(board, "O" if mover == "X" else "X", 2)
        board[i] = "."
        if best is None or score > best[1]:
            best = (i, score)
    return best


def random_position(rng):
    """A random 3 x 3 position in play, X moving first, with the side to move."""
    while True:
        board = ["."] * 9
        mover = "X"
        for _ in range(rng.randrange(0, 8)):
            free = [i for i in range(9) if board[i] == "."]
            board[rng.choice(free)] = mover
            mover = "O" if mover == "X" else "X"
            if winner(board):
                break
        if not winner(board) and "." in board:
            return board, mover


async def run(session, rng, positions):
    init = await session.initialize()
    check(init.server_info.name == "minimax-move", f"server name {init.server_info.name}")
    tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    check(set(tools) == {"suggest_move", "apply_move", "game_status", "review_game", "trace_search", "explain_move"}, f"tools {sorted(tools)}")
    for name, tool in tools.items():
        check(tool.input_schema.get("type") == "object", f"{name}: input schema")
        check((tool.output_schema or {}).get("type") == "object", f"{name}: output schema")
        check(len(tool.description or "") > 80, f"{name}: description")

    for _ in range(positions):
        board, mover = random_position(rng)
        compact = "".join(board)
        result = await session.call_tool("suggest_move", {"board": compact})
        answer = result.structured_content or {}
        index, score = oracle(board, mover)
        check(not result.is_error, f"suggest_move {compact}: {result}")
        check(answer.get("index") == index and answer.get("score") == score,
              f"suggest_move {compact}: got {answer.get('index')}/{answer.get('score')}, oracle {index}/{score}")
        text = result.content[0].text if result.content else ""
        check(answer.get("explanation", "?") in text and " | " in text, f"suggest_move text {text!r}")

    won = await session.call_tool("apply_move", {"board": ["X", "X", 2, "O", "O", 5, 6, 7, 8], "index": 2})
    check((won.structured_content or {}).get("status") == {"state": "win", "winner": "X", "line": [0, 1, 2]},
          f"apply_move win: {won}")
    check((won.structured_content or {}).get("to_move") is None, f"apply_move win: {won}")
    drawn = await session.call_tool("apply_move", {"board": "XOXXOOOX.", "index": 8})
    check((drawn.structured_content or {}).get("status", {}).get("state") == "draw", f"apply_move draw: {drawn}")
    going = await session.call_tool("apply_move", {"board": ".........", "index": 4})
    check((going.structured_content or {}).get("board") == "....X....", f"apply_move: {going}")
    check((going.structured_content or {}).get("to_move") == "O", f"apply_move: {going}")
    # `cell`, the former name of `index`, is still read.
    old = await session.call_tool("apply_move", {"board": ".........", "cell": 4})
    check((old.structured_content or {}).get("index") == 4, f"apply_move with cell: {old}")

    for board, state, to_move in [("XXXOO....", "win", None), ("XOXXOOOXX", "draw", None),
                                  ("XO.......", "in_play", "X")]:
        status = await session.call_tool("game_status", {"board": board})
        content = status.structured_content or {}
        check(not status.is_error and content.get("status", {}).get("state") == state
              and content.get("to_move") == to_move, f"game_status {board}: {status}")

    for tool, arguments, code in [
        ("suggest_move", {"board": "XXXX....."}, "impossible_position"),
        ("suggest_move", {"board": "XXXOO...."}, "game_over"),
        ("suggest_move", {"board": [0, 1, 7, 3, 4, 5, 6, 7, 8]}, "invalid_cell"),
        ("suggest_move", {"board": ".........", "scorng": "depth"}, "unknown_field"),
        ("apply_move", {"board": "XO.......", "index": 0}, "invalid_move"),
        ("apply_move", {"board": "XXXOO....", "index": 6}, "game_over"),
        ("game_status", {"board": "OOO......"}, "impossible_position"),
    ]:
        result = await session.call_tool(tool, arguments)
        text = result.content[0].text if result.content else ""
        check(result.is_error and text.startswith(f"{code}: "),
              f"{tool} {arguments}: expected tool error {code}, got {result}")
        check(result.structured_content is None, f"{tool} {arguments}: no structured content on an error")

    big = ["."] * 225
    big[112] = "X"
    result = await session.call_tool("suggest_move", {"board": "".join(big), "rows": 15, "cols": 15,
                                                      "k": 5, "time_limit_ms": 200})
    answer = result.structured_content or {}
    check(not result.is_error and isinstance(answer.get("index"), int) and big[answer["index"]] == ".",
          f"15 x 15: {result}")
    text = result.content[0].text if result.content else ""
    check(len(text.splitlines()) >= 15, f"15 x 15 grid: {text!r}")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--stdio")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--positions", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.url:
        async with streamable_http_client(args.url) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await run(session, rng, args.positions)
    if args.stdio:
        params = StdioServerParameters(command=args.stdio, args=["mcp"], env={"RUST_LOG": "warn"})
        async with stdio_client(params) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await run(session, rng, args.positions)
    if FAILURES:
        print(f"{len(FAILURES)} MCP check(s) failed", file=sys.stderr)
        sys.exit(1)
    print(f"MCP checks passed ({'HTTP ' if args.url else ''}{'stdio' if args.stdio else ''})")


asyncio.run(main())
