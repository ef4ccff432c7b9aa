import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { config } from "@/lib/config";
import "./globals.css";

export function generateMetadata(): Metadata {
  const { serviceName } = config();
  return {
    title: { default: serviceName, template: `%s · ${serviceName}` },
    description: "Accept cryptocurrency payments with hosted checkout, signed webhooks and an agent kit.",
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request so Next.js can put the request's CSP nonce on its scripts
  // (a page prerendered at build time would carry none and be blocked).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
