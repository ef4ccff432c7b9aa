"use client";

import { QRCodeSVG } from "qrcode.react";

/** A scannable code of a link, for printing or showing on a screen at the counter. */
export function LinkQrCode({ value, label }: { value: string; label: string }) {
  return (
    <QRCodeSVG
      value={value}
      size={168}
      marginSize={2}
      title={label}
      className="h-auto w-40 rounded-lg border border-slate-200 bg-white"
    />
  );
}
