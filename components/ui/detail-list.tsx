import type { ReactNode } from "react";

/** Label–value rows of a record's details; labels above values on phones. */
export function DetailList({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-100">
      {items.map(([label, value]) => (
        <div key={label} className="grid gap-1 px-5 py-3 sm:grid-cols-3 sm:gap-4">
          <dt className="text-sm text-slate-500">{label}</dt>
          <dd className="min-w-0 break-words text-sm text-slate-900 sm:col-span-2">{value ?? "—"}</dd>
        </div>
      ))}
    </dl>
  );
}
