import { describe, expect, it } from "vitest";
import { KitError } from "../http/errors";
import { formatFromArgv, Output, terminalJson, terminalText } from "./output";

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

/** Characters a terminal acts on (C0 but newline, DEL, C1, the right-to-left override) found raw. */
const rawControls = (text: string) =>
  [...text].filter((character) => {
    const code = character.charCodeAt(0);
    return (code < 0x20 && character !== "\n") || (code >= 0x7f && code <= 0x9f) || code === 0x202e;
  });

describe("server text on a terminal", () => {
  it.each([
    ["plain text", "T-shirt, 25.00 USD", "T-shirt, 25.00 USD"],
    ["newline and tab (multi-line answers)", "line 1\n\tline 2", "line 1\n\tline 2"],
    ["a colour (CSI)", "\u001b[31mred\u001b[0m", "red"],
    ["clearing the screen", "\u001b[2J\u001b[Hfresh", "fresh"],
    ["a hyperlink (OSC 8, BEL)", "\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007", "click"],
    ["a window title (OSC, ST)", "\u001b]0;pwned\u001b\\ok", "ok"],
    ["an 8-bit CSI (C1)", "\u009b31mred", "red"],
    ["a reset and a saved cursor (ESC pairs)", "a\u001bcb\u001b7c\u001b(Bd", "abcd"],
    ["carriage return overwriting the line", "Paid\rNot paid", "PaidNot paid"],
    ["backspace, NUL, BEL, DEL", "a\bb\u0000c\u0007d\u007fe", "abcde"],
    ["other C1 controls", "a\u0085b\u009fc", "abc"],
    ["a right-to-left override", "invoice\u202Efdp.exe", "invoicefdp.exe"],
    ["bidi isolates and marks", "\u2066a\u2069\u200Fb\u061C", "ab"],
  ])("strips %s", (_name, text, printed) => {
    expect(terminalText(text)).toBe(printed);
  });

  it("keeps JSON exact but escapes what a terminal would act on", () => {
    const value = { name: "\u001b[31mred\u009b2J\u202Eevil\u007f", plain: "Ünïcødé ✓" };
    const json = terminalJson(value);
    expect(JSON.parse(json)).toEqual(value);
    expect(rawControls(json)).toEqual([]);
    expect(json).toContain("Ünïcødé ✓");
  });

  it.each([
    ["text", "stdout"],
    ["json", "stdout"],
  ] as const)("prints results and errors in %s mode without raw control characters", (format, stream) => {
    const hostile = "\u001b]8;;https://evil.example\u0007Shirt\u001b]8;;\u0007\u202E";
    const ok = streams(true);
    new Output(format, ok.streams).result({ name: hostile }, [`Name: ${hostile}`]);
    const bad = streams(true);
    new Output(format, bad.streams).fail(
      new KitError({ error: { type: "api_error", code: "x", message: hostile } }, 4),
    );
    for (const written of [ok.written[stream], bad.written.stdout + bad.written.stderr]) {
      expect(rawControls(written)).toEqual([]);
      expect(written).toContain("Shirt");
    }
  });
});
