/** A block of shell or code the reader is meant to copy. */
export function CodeBlock({ children, label }: { children: string; label?: string }) {
  return (
    <figure className="overflow-hidden rounded-lg border border-slate-800 bg-slate-900">
      {label ? (
        <figcaption className="border-b border-slate-800 px-4 py-2 text-xs font-medium text-slate-400">
          {label}
        </figcaption>
      ) : null}
      <pre className="overflow-x-auto p-4 font-mono text-sm leading-relaxed text-slate-100">
        <code>{children}</code>
      </pre>
    </figure>
  );
}
