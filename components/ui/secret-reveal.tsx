import { CopyButton } from "@/components/checkout/copy-button";

/** A credential shown once: in full, with a copy button and the warning that it won't be again. */
export function SecretReveal({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-4">
      <p className="text-sm font-medium text-emerald-900">
        {label}: copy it now, it will not be shown again.
      </p>
      <div className="flex items-center gap-2">
        <code
          data-testid="secret-value"
          className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-sm text-slate-900 ring-1 ring-emerald-200"
        >
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${label}`} />
      </div>
    </div>
  );
}
