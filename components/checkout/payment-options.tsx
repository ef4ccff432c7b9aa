"use client";

import type { PaymentNetworkOption } from "@/lib/payments/payment-options";
import { NetworkIcon } from "./network-icon";

/** A network the buyer can pay on, with "on {network}" in the buyer's language (the token's label). */
export type PaymentChoice = PaymentNetworkOption & { onNetwork: string };

/** The buyer's choice of network and token, grouped by network; texts come translated from the server. */
export function PaymentOptions(props: {
  options: PaymentChoice[];
  texts: { payWith: string; unavailable: string };
  disabled: boolean;
  error: string | null;
  onChoose: (choice: { network: string; token: string }) => void;
}) {
  if (props.options.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-300">{props.texts.unavailable}</p>;
  }
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="mb-2 text-sm font-semibold">{props.texts.payWith}</legend>
      {props.options.map((option) => (
        <fieldset key={option.network} className="flex flex-col gap-2">
          <legend className="mb-2 flex items-center gap-2 text-sm font-medium">
            <NetworkIcon network={option.network} name={option.networkName} />
            {option.networkName}
          </legend>
          <div className="grid grid-cols-2 gap-2">
            {option.tokens.map((token) => (
              <button
                key={token}
                type="button"
                disabled={props.disabled}
                onClick={() => props.onChoose({ network: option.network, token })}
                aria-label={`${token} ${option.onNetwork}`}
                className="rounded-lg border border-slate-300 bg-white px-4 py-3 text-left font-medium hover:border-brand-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:border-slate-300"
              >
                {token}
              </button>
            ))}
          </div>
        </fieldset>
      ))}
      {props.error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
