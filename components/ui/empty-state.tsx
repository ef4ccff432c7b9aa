import type { ReactNode } from "react";

/** What an empty list shows: what goes here and how to make the first one. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
      <p className="text-sm font-semibold text-slate-900">{title}</p>
      {children ? <div className="max-w-md text-sm text-slate-500">{children}</div> : null}
    </div>
  );
}
