import type { Command } from "commander";
import { type Json, readJsonArgument, wholeNumber } from "../cli/arguments";
import { commandDefiner, run } from "../cli/define-command";
import { line, pageLines, payUrl } from "../cli/text-lines";
import type { Kit } from "../context";
import { usageError } from "../http/errors";
import * as api from "../operations/merchant-api";

/** Paylinks: reusable fixed-price payment pages. */
export function registerPaylinkCommands(program: Command) {
  const define = commandDefiner(program);

  define(
    "paylinks:create",
    "Create a paylink: a reusable fixed-price payment page.",
    `crypto-checkout paylinks:create --json '{"name":"T-shirt","amount":"25.00","currency":"USD"}'`,
  )
    .requiredOption(
      "--json <json>",
      "{ name, amount, currency, description?, enabled? } (inline, @file or -)",
    )
    .action(
      run<{ format: "text" | "json"; json: string }>(async (options, output, kit) => {
        const paylink = await api.createPaylink(kit, await readJsonArgument(options.json));
        return output.result(paylink, paylinkLines(kit, paylink));
      }),
    );

  define("paylinks:list", "List paylinks, newest first.", "crypto-checkout paylinks:list --page 1 --rows 20")
    .option("--page <page>", "page number, from 1", wholeNumber(1_000_000))
    .option("--rows <rows>", "rows per page, 1 to 100", wholeNumber(100))
    .action(
      run<{ format: "text" | "json"; page?: number; rows?: number }>(async (options, output, kit) => {
        const page = await api.listPaylinks(kit, { page: options.page, rows: options.rows });
        return output.result(
          page,
          pageLines(
            page,
            (paylink) =>
              `${paylink.id}  ${paylink.amount} ${paylink.currency}  ${paylink.enabled ? "enabled " : "disabled"}  ${paylink.name}`,
          ),
        );
      }),
    );

  define("paylinks:get", "Show one paylink.", "crypto-checkout paylinks:get --id 0b6f…")
    .requiredOption("--id <id>", "the paylink id (a UUID)")
    .action(
      run<{ format: "text" | "json"; id: string }>(async (options, output, kit) => {
        const paylink = await api.getPaylink(kit, options.id);
        return output.result(paylink, paylinkLines(kit, paylink));
      }),
    );

  define(
    "paylinks:disable",
    "Disable a paylink: its page stops taking payments. Needs --confirm.",
    "crypto-checkout paylinks:disable --id 0b6f… --confirm",
  )
    .requiredOption("--id <id>", "the paylink id (a UUID)")
    .option("--confirm", "confirm that buyers can no longer pay through this paylink")
    .action(
      run<{ format: "text" | "json"; id: string; confirm?: boolean }>(async (options, output, kit) => {
        if (!options.confirm) {
          throw usageError("confirmation_required", "Disabling a paylink needs --confirm.", "confirm");
        }
        const paylink = await api.disablePaylink(kit, options.id);
        return output.result(paylink, paylinkLines(kit, paylink));
      }),
    );
}

function paylinkLines(kit: Kit, paylink: Json) {
  return [
    line("Paylink", paylink.id),
    line("Name", paylink.name),
    line("Price", `${paylink.amount} ${paylink.currency}`),
    line("Enabled", paylink.enabled),
    line("URL", payUrl(kit, paylink)),
    line("x402 URL", paylink.x402Url),
  ];
}
