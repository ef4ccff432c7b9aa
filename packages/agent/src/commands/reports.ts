import path from "node:path";
import type { Command } from "commander";
import { contractCommand } from "../cli/define-command";
import { line } from "../cli/text-lines";
import { reportContracts } from "../contracts";
import * as api from "../operations/merchant-api";

/** Reports: the merchant's books as files, one command per report (reports:payments, reports:refunds). */
export function registerReportCommands(program: Command) {
  for (const report of reportContracts) {
    const name = report.path.slice(report.path.lastIndexOf("/") + 1);
    contractCommand(program, report, {
      action: async ({ input, options }, output, kit) => {
        const { from, to } = input.query as { from: string; to: string };
        const { file, bytes } = await api.downloadReport(
          kit,
          report,
          { from, to },
          (suggested) => (options.out as string | undefined) ?? suggested ?? `${name}.csv`,
        );
        const written = path.resolve(file);
        return output.result({ object: "report_file", report: name, file: written, bytes }, [
          line("Written", `${written} (${bytes} bytes)`),
        ]);
      },
    });
  }
}
