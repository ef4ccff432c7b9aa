import path from "node:path";
import type { Command } from "commander";
import { contractCommand } from "../cli/define-command";
import { line } from "../cli/text-lines";
import { reportPayments } from "../contracts";
import * as api from "../operations/merchant-api";

/** Reports: the merchant's books as files. */
export function registerReportCommands(program: Command) {
  contractCommand(program, reportPayments, {
    action: async ({ input, options }, output, kit) => {
      const { from, to } = input.query as { from: string; to: string };
      const { file, bytes } = await api.downloadPaymentReport(
        kit,
        { from, to },
        (suggested) => (options.out as string | undefined) ?? suggested ?? "payments.csv",
      );
      const written = path.resolve(file);
      return output.result({ object: "report_file", report: "payments", file: written, bytes }, [
        line("Written", `${written} (${bytes} bytes)`),
      ]);
    },
  });
}
