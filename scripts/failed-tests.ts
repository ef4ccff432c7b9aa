// The failed tests of a run by name, read from Vitest's and Playwright's JSON reports. `npm test`
// lists them again above its summary, because a long run's log is often read from its end.
import path from "node:path";

export type VitestReport = {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { ancestorTitles: string[]; title: string; status: string }[];
  }[];
};

export type PlaywrightSuite = {
  title: string;
  specs?: { title: string; tests: { status: string }[] }[];
  suites?: PlaywrightSuite[];
};

/** `<file> > <describe…> > <test>` for each failed test; a file that failed outside its tests, with its message. */
export function vitestFailures(report: VitestReport, root: string): string[] {
  return report.testResults.flatMap((file) => {
    const name = path.relative(root, file.name);
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    // A file that failed outside any test (an import, a hook) has no failed test to name.
    if (file.status === "failed" && failed.length === 0) {
      return [`${name}: ${(file.message || "failed").split("\n")[0]}`];
    }
    return failed.map((test) => [name, ...test.ancestorTitles, test.title].join(" > "));
  });
}

/** `<file> > <describe…> > <test>` for each spec with an unexpected result (flaky ones passed). */
export function playwrightFailures(suites: PlaywrightSuite[], titles: string[] = []): string[] {
  return suites.flatMap((suite) => {
    const within = [...titles, suite.title].filter(Boolean);
    return [
      ...(suite.specs ?? [])
        .filter((spec) => spec.tests.some((test) => test.status === "unexpected"))
        .map((spec) => [...within, spec.title].join(" > ")),
      ...playwrightFailures(suite.suites ?? [], within),
    ];
  });
}
