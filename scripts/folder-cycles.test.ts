// No two folders of lib import each other, directly or through others: each domain's public
// functions live in one place, and the arrows between domains point one way. A file directly
// under lib (config.ts, errors.ts, …) counts as a folder of its own.
import { describe, expect, it } from "vitest";
import { importsOf, sourceFiles } from "./test-support/import-graph";

/** The lib unit a repository path belongs to: `lib/<folder>` or `lib/<file>`; null outside lib. */
function libUnit(target: string): string | null {
  const [top, second] = target.split("/");
  return top === "lib" && second ? `lib/${second.replace(/\.tsx?$/, "")}` : null;
}

/** The cycles of a graph: its strongly connected components of more than one node (Tarjan). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

function libGraph(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles("lib")) {
    const from = libUnit(file) as string;
    for (const target of importsOf(file)) {
      const to = libUnit(target);
      if (!to || to === from) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

describe("lib folders", () => {
  it("import each other in one direction only", () => {
    expect(cycles(libGraph())).toEqual([]);
  });

  it("refuses a cycle planted in the real graph", () => {
    // lib/recurring sits below payments and subscriptions; an import back up closes a loop.
    const planted = libGraph();
    planted.set("lib/recurring", (planted.get("lib/recurring") ?? new Set()).add("lib/payments"));
    expect(cycles(planted)).toContainEqual(["lib/payments", "lib/recurring"]);
  });

  const graph = (pairs: string[]) =>
    new Map(pairs.map((pair) => pair.split(">")).map(([from, to]) => [from, new Set(to.split(","))]));
  it.each([
    [["a>b", "b>c"], []],
    [["a>b", "b>a"], [["a", "b"]]],
    [["a>b", "b>c", "c>a", "d>a"], [["a", "b", "c"]]],
    [["a>b,c", "b>c", "c>d", "d>b"], [["b", "c", "d"]]],
    [
      ["a>b", "b>a", "c>d", "d>c"],
      [
        ["a", "b"],
        ["c", "d"],
      ],
    ],
  ])("%j has cycles %j", (pairs, expected) => {
    expect(cycles(graph(pairs))).toEqual(expected);
  });

  it.each([
    ["lib/payments/scan-network.ts", "lib/payments"],
    ["lib/config.ts", "lib/config"],
    ["lib/config", "lib/config"],
    ["app/pay/page.tsx", null],
  ])("%s belongs to %s", (target, unit) => {
    expect(libUnit(target)).toBe(unit);
  });
});
