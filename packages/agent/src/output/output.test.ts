import { describe, expect, it } from "vitest";
import { KitError } from "../http/errors";
import { formatFromArgv, Output } from "./output";

function streams(isTTY: boolean) {
  const written = { stdout: "", stderr: "" };
  return {
    written,
    streams: {
      stdout: { isTTY, write: (text: string) => (written.stdout += text) },
      stderr: { isTTY, write: (text: string) => (written.stderr += text) },
    },
  };
}

const failure = new KitError(
  {
    error: { type: "invalid_request_error", code: "not_found", message: "No such paylink.", param: "id" },
    requestId: "req_1",
  },
  4,
);

describe("Output", () => {
  it.each([
    ["json on a terminal", "json", true, false],
    ["text in a pipe", "text", false, false],
    ["text on a terminal", "text", true, true],
  ] as const)("shows a spinner only for people at a terminal: %s", (_name, format, isTTY, spins) => {
    const { written, streams: io } = streams(isTTY);
    const output = new Output(format, io);
    output.progress("Working…").done();
    expect(written.stderr.includes("Working…")).toBe(spins);
    expect(written.stdout).toBe("");
  });

  it("prints one JSON document for a result and for an error, and returns the exit code", () => {
    const ok = streams(false);
    expect(new Output("json", ok.streams).result({ id: "p1" }, ["ignored"])).toBe(0);
    expect(JSON.parse(ok.written.stdout)).toEqual({ id: "p1" });
    const bad = streams(false);
    expect(new Output("json", bad.streams).fail(failure)).toBe(4);
    expect(JSON.parse(bad.written.stdout)).toEqual(failure.envelope);
    expect(bad.written.stderr).toBe("");
  });

  it("answers only once", () => {
    const output = new Output("json", streams(false).streams);
    output.result({}, []);
    expect(() => output.fail(failure)).toThrow(/once/);
  });

  it("writes text errors to stderr with the code, parameter and request id", () => {
    const { written, streams: io } = streams(false);
    new Output("text", io).fail(failure);
    expect(written).toEqual({
      stdout: "",
      stderr: "Error not_found (id): No such paylink. [request req_1]\n",
    });
  });

  it.each([
    [["node", "cli", "auth:status", "--format", "json"], "json"],
    [["node", "cli", "auth:status", "--format=json"], "json"],
    [["node", "cli", "auth:status"], "text"],
    [["node", "cli", "auth:status", "--format", "yaml"], "text"],
  ])("reads --format before parsing: %j", (argv, format) => {
    expect(formatFromArgv(argv)).toBe(format);
  });
});
