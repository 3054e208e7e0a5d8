"""Drives `planlint mcp` with the official MCP Python SDK (`mcp` on PyPI) as an agent host would:
spawn the server over stdio, initialize, list the tools, call each tool, send bad arguments and a
huge input, and check that the server is still there afterwards. Every structuredContent is
validated by the SDK against the tool's outputSchema.

session.py PLANLINT HISTORY_SERVER_URL   (run from the source folder; the URL serves skewed-join)
"""
import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp import MCPError

planlint, history_url = sys.argv[1], sys.argv[2]
example = "corpus/examples/orders-by-region.explain.txt"
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def text_of(result):
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def expect_protocol_error(session, tool, args, needle):
    try:
        await session.call_tool(tool, args)
    except MCPError as e:
        check(e.error.code == -32602 and needle in e.error.message, f"{tool} {json.dumps(args)[:60]}: JSON-RPC -32602 ({e.error.message})")
        return
    check(False, f"{tool} {json.dumps(args)[:60]}: expected a JSON-RPC error")


async def main():
    params = StdioServerParameters(command=planlint, args=["mcp", "--max-input-size", "4MB"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check(init.server_info.name == "planlint", f"initialize: server {init.server_info.name} {init.server_info.version}, protocol {init.protocol_version}")
            check(init.capabilities.tools is not None, "initialize: tools capability")
            await session.send_ping()
            check(True, "ping")

            tools = await session.list_tools()
            names = sorted(t.name for t in tools.tools)
            check(names == ["diff_plans", "explain_rule", "lint_history_server", "lint_plan", "show_plan"], f"tools/list: {names}")
            check(all(t.output_schema and t.input_schema for t in tools.tools), "every tool has an inputSchema and an outputSchema")

            plan = open(example).read()
            r = await session.call_tool("lint_plan", {"plan": plan, "no_config": True})
            sc = r.structured_content
            codes = [f["code"] for f in sc["findings"]]
            check(not r.is_error and "PL002" in codes and "PL006" in codes, f"lint_plan (text): {codes}")
            pl002 = next(f for f in sc["findings"] if f["code"] == "PL002")
            check(pl002["operator"] == "SortMergeJoin" and pl002["location"]["line"] == 10 and pl002["evidence"] and "BROADCAST" in pl002["fix"],
                  "lint_plan: PL002 on SortMergeJoin at line 10 with evidence and fix")
            check("PL002" in text_of(r), "lint_plan: the text summary names the finding")

            r = await session.call_tool("lint_plan", {"path": example, "select": ["PL002"], "set": {"broadcast-threshold": "1k"}})
            check(not r.is_error and r.structured_content["findings"] == [], "lint_plan (path): --set broadcast-threshold=1k silences PL002")
            r = await session.call_tool("lint_plan", {"path": "corpus/eventlog/skewed-join.eventlog"})
            found = r.structured_content["findings"]
            check(not r.is_error and r.structured_content["format"] == "event-log" and found and
                  all(f["execution"]["id"] == 0 and f["plan"].startswith("execution 0 ") and
                      not f["message"].startswith("execution ") for f in found) and
                  "execution 0 (" in text_of(r),
                  f"lint_plan (event log, streamed): {len(found)} findings, each naming its execution")

            r = await session.call_tool("explain_rule", {"rule": "PL002"})
            check(not r.is_error and r.structured_content["name"] == "shuffle-join-could-broadcast" and "broadcast" in text_of(r).lower(),
                  "explain_rule PL002")

            r = await session.call_tool("show_plan", {"path": "corpus/eventlog/skewed-join.eventlog", "top": 3})
            p0 = r.structured_content["plans"][0]
            check(not r.is_error and p0["top_by"] == "time" and "Sort" in [o["operator"] for o in p0["top_operators"]] and "SortMergeJoin" in r.structured_content["tree"],
                  f"show_plan: slowest {p0['top_operators'][0]['operator']} ({p0['top_operators'][0].get('share', 0):.0%})")

            # Two different queries (orders with stores, orders with customers): refused, unless forced.
            r = await session.call_tool("diff_plans", {"old_path": "corpus/check/orders-join.explain.txt", "new_path": example})
            check(r.is_error and "same query" in text_of(r), f"diff_plans of two queries is refused: {text_of(r)[:100]}")
            r = await session.call_tool("diff_plans", {"old_path": "corpus/check/orders-join.explain.txt", "new_path": example, "force": True})
            rules = sorted({f["rule"] for f in (r.structured_content or {}).get("findings", [])})
            check(not r.is_error and "new-exchange-or-sort" in rules, f"diff_plans (force): {rules}")
            r = await session.call_tool("diff_plans", {"old_path": "corpus/check/orders-join.explain.txt",
                                                       "new_path": "corpus/check/orders-join.recaptured.explain.txt"})
            check(not r.is_error and not r.structured_content["findings"], "diff_plans of a re-capture: no findings")

            r = await session.call_tool("lint_history_server", {"url": history_url, "app": "skewed-join"})
            codes = sorted({f["code"] for f in (r.structured_content or {}).get("findings", [])})
            check(not r.is_error and "PL003" in codes, f"lint_history_server (application): {codes} {text_of(r)[:80] if r.is_error else ''}")
            r = await session.call_tool("lint_history_server", {"url": history_url, "app": "skewed-join", "execution": 0})
            check(not r.is_error and r.structured_content["findings"], "lint_history_server (one execution)")
            r = await session.call_tool("lint_history_server", {"url": history_url, "app": "no-such-app"})
            check(r.is_error and "404" in text_of(r), f"lint_history_server (unknown app): isError: {text_of(r)[:100]}")

            # Bad arguments: JSON-RPC errors for what the inputSchema refuses, isError for the rest.
            await expect_protocol_error(session, "lint_plan", {"plan": 42}, "must be a string")
            await expect_protocol_error(session, "lint_plan", {"plan": "x", "colour": "red"}, "unknown argument")
            await expect_protocol_error(session, "explain_rule", {}, "missing required argument")
            await expect_protocol_error(session, "no_such_tool", {}, "unknown tool")
            r = await session.call_tool("lint_plan", {"plan": "hello"})
            check(r.is_error and "no plan operators were read" in text_of(r), "lint_plan on a non-plan: isError")
            r = await session.call_tool("lint_plan", {"path": "/nonexistent/plan.txt"})
            check(r.is_error, f"lint_plan on a missing file: isError: {text_of(r)[:80]}")
            r = await session.call_tool("lint_plan", {"plan": plan, "select": ["PL777"]})
            check(r.is_error and "PL777" in text_of(r), "lint_plan with an unknown rule: isError")
            r = await session.call_tool("explain_rule", {"rule": "no-such-rule"})
            check(r.is_error, "explain_rule with an unknown rule: isError")

            # A huge input: 5 MB of plan text over the server's 4 MB --max-input-size.
            huge = plan * (5_000_000 // len(plan) + 1)
            r = await session.call_tool("lint_plan", {"plan": huge})
            check(r.is_error and "larger than the maximum input size" in text_of(r), f"lint_plan on {len(huge):,} bytes: isError: {text_of(r)[:90]}")

            # Still serving after all of that.
            r = await session.call_tool("lint_plan", {"path": example, "select": ["PL006"]})
            check(not r.is_error and r.structured_content["findings"], "the server still answers after the errors")
    check(True, "the session closed (EOF ends the server)")


asyncio.run(asyncio.wait_for(main(), 120))
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
