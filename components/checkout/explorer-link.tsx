import { explorerPage } from "@/lib/chains/explorer-page";

/** A link to the network's block explorer, when the network has one. */
export function ExplorerLink(props: {
  explorerUrl: string | null;
  kind: "address" | "tx";
  value: string;
  children: string;
}) {
  if (!props.explorerUrl) return null;
  return (
    <a
      href={explorerPage(props.explorerUrl, props.kind, props.value)}
      target="_blank"
      rel="noopener noreferrer"
      className="text-xs text-slate-700 underline underline-offset-2 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
    >
      {props.children}
    </a>
  );
}
