"use client";

import type { ReactNode } from "react";

/**
 * Text shown rounded whose exact value is what gets copied: selecting it (and nothing around it)
 * and copying puts `exact` on the clipboard. The exact value is also the tooltip.
 */
export function ExactOnCopy({ exact, children }: { exact: string; children: ReactNode }) {
  return (
    <span
      title={exact}
      data-exact={exact}
      onCopy={(event) => {
        const selection = window.getSelection();
        if (!selection || selection.rangeCount === 0) return;
        if (!event.currentTarget.contains(selection.getRangeAt(0).commonAncestorContainer)) return;
        event.clipboardData.setData("text/plain", exact);
        event.preventDefault();
      }}
    >
      {children}
    </span>
  );
}
