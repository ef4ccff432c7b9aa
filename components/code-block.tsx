/** A block of shell or code the reader is meant to copy. */
export function CodeBlock({ children, label }: { children: string; label?: string }) {
  return (
    <figure className="overflow-hidden rounded-lg border border-slate-800 bg-slate-900">
      {label ? (
        <figcaption className="border-b border-slate-800 px-4 py-2 text-xs font-medium text-slate-400">
          {label}
        </figcaption>
      ) : null}
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must take focus to be scrolled from the keyboard (WCAG 2.1.1)
        tabIndex={0}
        className="overflow-x-auto p-4 font-mono text-sm leading-relaxed text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <code>{children}</code>
      </pre>
    </figure>
  );
}
