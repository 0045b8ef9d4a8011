"""Drives `perch mcp` with the official MCP client from PyPI (the `mcp` package).

Usage: mcp_client.py PERCH_BINARY EXPECTED_GIT_IDENT FOLDER
Starts `PERCH_BINARY mcp` in FOLDER with this process's environment (the test's scratch HOME
and XDG folders), negotiates with `initialize` (ClientSession) and with the client's default
mode (`Client`, which probes server/discover first and falls back to initialize), lists the
tools, calls each, and prints one JSON object of what it found; exits 1 on any mismatch.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def fail(message):
    print(json.dumps({"ok": False, "error": message}))
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def field(value, snake, camel):
    """An attribute by its 2.x name (snake_case), else its 1.x name (camelCase)."""
    return getattr(value, snake) if hasattr(value, snake) else getattr(value, camel)


def answer(result):
    """The JSON object of a successful tool result (its one text item), checked against structuredContent."""
    check(not field(result, "is_error", "isError"), f"tool error: {result.content}")
    check(len(result.content) == 1 and result.content[0].type == "text", f"one text item: {result.content}")
    value = json.loads(result.content[0].text)
    structured = field(result, "structured_content", "structuredContent")
    if structured is not None:
        check(structured == value, "structuredContent differs from the text")
    return value


async def session_checks(perch, ident, folder):
    params = StdioServerParameters(command=perch, args=["mcp"], env=dict(os.environ), cwd=folder)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            version = field(init, "protocol_version", "protocolVersion")
            check(field(init, "server_info", "serverInfo").name == "perch", f"serverInfo: {init}")
            await session.send_ping()
            tools = await session.list_tools()
            names = sorted(tool.name for tool in tools.tools)
            check(names == ["list_accounts", "verify", "whoami"], f"tools: {names}")
            for tool in tools.tools:
                check(field(tool, "input_schema", "inputSchema").get("type") == "object", f"{tool.name}'s schema: {field(tool, 'input_schema', 'inputSchema')}")
                check(tool.annotations is not None and field(tool.annotations, "read_only_hint", "readOnlyHint"), f"{tool.name} not read-only")

            accounts = answer(await session.call_tool("list_accounts", {}))
            ids = [account["id"] for account in accounts["accounts"]]
            check(ids == ["work", "home"], f"accounts: {ids}")
            check(accounts["accounts"][0]["tools"] == ["git", "env"], f"tools: {accounts['accounts'][0]}")
            check(accounts["accounts"][0]["current"] is True, "work is current")
            check("s3cret" not in json.dumps(accounts), "a secret in list_accounts")

            whoami = answer(await session.call_tool("whoami", {}))
            check(whoami["account"] == "work", f"whoami account: {whoami['account']}")
            check(whoami["chosenBy"] == "the global account", f"chosenBy: {whoami['chosenBy']}")
            git = [a for a in whoami["answers"] if a["tool"] == "git" and a["asked"].startswith("git var GIT_AUTHOR_IDENT")]
            check(len(git) == 1, f"whoami's git answers: {whoami['answers']}")
            check(git[0]["verdict"] == "agrees", f"git: {git[0]}")
            check(ident.startswith(git[0]["answer"]), f"git says {ident!r}, whoami {git[0]['answer']!r}")
            check("s3cret" not in json.dumps(whoami), "a secret in whoami")

            verified = answer(await session.call_tool("verify", {"account": "home", "online": False}))
            check(verified["account"] == "home" and verified["online"] is False, f"verify home: {verified}")
            check(verified["chosenBy"] == "named on the command line", f"chosenBy: {verified['chosenBy']}")
            check(verified["agrees"] is False, "home disagrees here, where work is current")

            unknown = await session.call_tool("verify", {"account": "nobody"})
            check(field(unknown, "is_error", "isError") and "nobody" in unknown.content[0].text, f"verify nobody: {unknown}")
            typed = await session.call_tool("verify", {"online": "yes"})
            check(field(typed, "is_error", "isError") and "online" in typed.content[0].text, f"verify online=yes: {typed}")
            return {"version": version, "gitAnswer": git[0]["answer"], "ids": ids}


async def default_client_checks(perch, folder):
    from mcp import Client

    async with Client(StdioServerParameters(command=perch, args=["mcp"], env=dict(os.environ), cwd=folder)) as client:
        result = await client.call_tool("whoami", {})
        return answer(result)["account"]


async def main():
    perch, ident, folder = sys.argv[1], sys.argv[2], sys.argv[3]
    found = await asyncio.wait_for(session_checks(perch, ident, folder), 60)
    try:
        from mcp import Client  # noqa: F401
    except ImportError:
        found["defaultClient"] = None
    else:
        found["defaultClient"] = await asyncio.wait_for(default_client_checks(perch, folder), 60)
    found["ok"] = True
    print(json.dumps(found))


asyncio.run(main())
