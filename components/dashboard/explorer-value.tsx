import { CopyButton } from "@/components/checkout/copy-button";
import { shorten } from "@/components/checkout/format";
import { explorerLink } from "@/lib/config";

const nouns = { tx: "transaction", address: "address" } as const;

/**
 * A transaction (EVM hash, Solana signature) or an address on a network: linked to the network's
 * explorer where it has one, and copyable, so one on a local chain (no explorer) can still be
 * looked up. `short` shows its ends only; the whole value is the tooltip and what is copied.
 */
export function ExplorerValue(props: {
  network: string;
  kind: "address" | "tx";
  value: string;
  short?: boolean;
  label?: string;
}) {
  const href = explorerLink(props.network, props.kind, props.value);
  const text = props.label ?? (props.short ? shorten(props.value) : props.value);
  return (
    <span className="inline-flex max-w-full items-center gap-2">
      {href ? (
        <a
          className="break-all font-mono text-xs text-brand-700 underline underline-offset-2 hover:text-brand-600"
          href={href}
          rel="noopener noreferrer"
          target="_blank"
          title={props.value}
        >
          {text}
        </a>
      ) : (
        <span className="break-all font-mono text-xs" title={props.value}>
          {text}
        </span>
      )}
      <CopyButton value={props.value} label={`Copy ${nouns[props.kind]}`} />
    </span>
  );
}
