// One look for buttons and button-like links across the dashboard.
const base =
  "inline-flex items-center justify-center gap-1.5 rounded-lg px-3.5 py-2 text-sm font-medium transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-60";

export const buttonStyles = {
  primary: `${base} bg-brand-600 text-white shadow-sm hover:bg-brand-700`,
  secondary: `${base} border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50`,
  danger: `${base} bg-red-600 text-white shadow-sm hover:bg-red-700`,
  ghost: `${base} text-slate-600 hover:bg-slate-100`,
} as const;

export type ButtonVariant = keyof typeof buttonStyles;
