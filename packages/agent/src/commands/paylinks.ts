import type { Command } from "commander";
import type { Json } from "../cli/arguments";
import { contractCommand } from "../cli/define-command";
import { line, pageLines, payUrl } from "../cli/text-lines";
import type { Kit } from "../context";
import { createPaylink, disablePaylink, listPaylinks, retrievePaylink } from "../contracts";

/** Paylinks: reusable fixed-price payment pages. */
export function registerPaylinkCommands(program: Command) {
  contractCommand(program, createPaylink, { lines: paylinkLines });
  contractCommand(program, listPaylinks, {
    lines: (page) =>
      pageLines(
        page,
        (paylink) =>
          `${paylink.id}  ${paylink.amount} ${paylink.currency}  ${paylink.enabled ? "enabled " : "disabled"}  ${paylink.name}`,
      ),
  });
  contractCommand(program, retrievePaylink, { lines: paylinkLines });
  contractCommand(program, disablePaylink, { lines: paylinkLines });
}

function paylinkLines(paylink: Json, kit: Kit) {
  return [
    line("Paylink", paylink.id),
    line("Name", paylink.name),
    line("Price", `${paylink.amount} ${paylink.currency}`),
    line("Enabled", paylink.enabled),
    line("URL", payUrl(kit, paylink)),
    line("x402 URL", paylink.x402Url),
  ];
}
