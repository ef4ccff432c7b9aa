import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { db } from "@/lib/db/client";
import { readMetrics } from "@/lib/health/read-metrics";

// The alert rules and the Grafana dashboard shipped in ops/ must load, and every metric they
// query must be one /api/metrics really exposes.
const root = path.resolve(import.meta.dirname, "..");
const rulesFile = path.join(root, "ops/prometheus/alerts.yml");
const dashboardFile = path.join(root, "ops/grafana/crypto-checkout-dashboard.json");

type Rule = { alert: string; expr: string; for?: string; labels?: Record<string, string> };
type Panel = { title: string; targets: { expr: string }[] };

/** Every series name the exposition can carry (histograms as their _bucket, _sum and _count). */
async function exposedNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const [, name, type] of (await readMetrics(db())).matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(name + suffix);
  }
  return names;
}

const queried = (expr: string) => [...expr.matchAll(/\bcheckout_[a-z0-9_]+\b/g)].map(([name]) => name);

/** promtool from PATH or PROMTOOL (Debian's `prometheus` package ships it), if this machine has one. */
function promtool(): string | null {
  const candidates = [process.env.PROMTOOL, "promtool"].filter(Boolean) as string[];
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ["--version"], { stdio: "ignore" });
      return candidate;
    } catch {
      // not installed here
    }
  }
  return null;
}

describe("ops/prometheus/alerts.yml", () => {
  const rules: Rule[] = (
    parse(readFileSync(rulesFile, "utf8")) as { groups: { rules: Rule[] }[] }
  ).groups.flatMap((group) => group.rules);

  it("has the alerts the operations guide promises, each with a severity and a duration", () => {
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        "ChainWatcherStalled",
        "WebhookBacklogGrowing",
        "WebhookOldestDueDelivery",
        "RpcErrorRate",
        "Http5xxRate",
      ]),
    );
    for (const rule of rules) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(page|warn)$/);
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
    }
  });

  it("queries only metrics that /api/metrics exposes", async () => {
    const names = await exposedNames();
    for (const rule of rules) {
      expect(queried(rule.expr).length, rule.alert).toBeGreaterThan(0);
      for (const name of queried(rule.expr)) expect(names, `${rule.alert}: ${name}`).toContain(name);
    }
  });

  it("passes promtool check rules where promtool is installed, and parses as YAML everywhere", () => {
    const tool = promtool();
    if (tool)
      expect(execFileSync(tool, ["check", "rules", rulesFile]).toString()).toMatch(
        /SUCCESS: \d+ rules found/,
      );
    expect(rules.length).toBeGreaterThanOrEqual(5);
  });
});

describe("ops/grafana/crypto-checkout-dashboard.json", () => {
  const dashboard = JSON.parse(readFileSync(dashboardFile, "utf8")) as { title: string; panels: Panel[] };

  it("loads as JSON, and every panel queries metrics that /api/metrics exposes", async () => {
    const names = await exposedNames();
    expect(dashboard.panels.length).toBeGreaterThan(0);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        expect(queried(target.expr).length, panel.title).toBeGreaterThan(0);
        for (const name of queried(target.expr)) expect(names, `${panel.title}: ${name}`).toContain(name);
      }
    }
  });
});
