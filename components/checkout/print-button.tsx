"use client";

/** Prints the page; print CSS leaves out the page around the receipt, and this button. */
export function PrintButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="self-start rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 print:hidden dark:border-slate-600 dark:hover:bg-slate-800"
    >
      {label}
    </button>
  );
}
