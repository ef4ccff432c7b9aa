"use client";

import { signOut } from "next-auth/react";
import { buttonStyles } from "@/components/ui/button-styles";

export function SignOutButton() {
  return (
    <button type="button" className={buttonStyles.ghost} onClick={() => signOut({ callbackUrl: "/login" })}>
      Sign out
    </button>
  );
}
