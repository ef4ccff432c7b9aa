import { describe, expect, it } from "vitest";
import { type PlaywrightSuite, playwrightFailures, type VitestReport, vitestFailures } from "./failed-tests";

const test = (title: string, status: string, ancestorTitles: string[] = []) => ({
  ancestorTitles,
  title,
  status,
});

describe("vitestFailures", () => {
  it.each<[string, VitestReport["testResults"][number], string[]]>([
    [
      "a passing file",
      { name: "/repo/a.test.ts", status: "passed", assertionResults: [test("x", "passed")] },
      [],
    ],
    [
      "failed tests, with their describes",
      {
        name: "/repo/lib/b.int.test.ts",
        status: "failed",
        assertionResults: [
          test("ok", "passed"),
          test("pays", "failed", ["POST", "card"]),
          test("top", "failed"),
        ],
      },
      ["lib/b.int.test.ts > POST > card > pays", "lib/b.int.test.ts > top"],
    ],
    [
      "a file that failed outside its tests",
      {
        name: "/repo/c.test.ts",
        status: "failed",
        message: "Failed to load url ./gone\nat line 3",
        assertionResults: [],
      },
      ["c.test.ts: Failed to load url ./gone"],
    ],
    [
      "one without a message",
      { name: "/repo/d.test.ts", status: "failed", assertionResults: [] },
      ["d.test.ts: failed"],
    ],
    [
      "skipped and todo tests",
      {
        name: "/repo/e.test.ts",
        status: "passed",
        assertionResults: [test("s", "skipped"), test("t", "todo")],
      },
      [],
    ],
  ])("%s", (_, file, expected) => {
    expect(vitestFailures({ testResults: [file] }, "/repo")).toEqual(expected);
  });
});

describe("playwrightFailures", () => {
  const spec = (title: string, ...statuses: string[]) => ({
    title,
    tests: statuses.map((status) => ({ status })),
  });
  it.each<[string, PlaywrightSuite, string[]]>([
    [
      "expected and flaky specs",
      { title: "a.spec.ts", specs: [spec("pays", "expected"), spec("retries", "flaky")] },
      [],
    ],
    ["a skipped spec", { title: "a.spec.ts", specs: [spec("later", "skipped")] }, []],
    [
      "unexpected specs at any depth",
      {
        title: "b.spec.ts",
        specs: [spec("top", "unexpected")],
        suites: [
          { title: "checkout", specs: [spec("ok", "expected"), spec("receipt", "expected", "unexpected")] },
        ],
      },
      ["b.spec.ts > top", "b.spec.ts > checkout > receipt"],
    ],
    [
      "an untitled suite",
      { title: "", suites: [{ title: "c.spec.ts", specs: [spec("x", "unexpected")] }] },
      ["c.spec.ts > x"],
    ],
  ])("%s", (_, suite, expected) => {
    expect(playwrightFailures([suite])).toEqual(expected);
  });
});
