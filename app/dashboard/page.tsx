import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireMember } from "@/lib/http/dashboard-session";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const member = await requireMember();
  return <PageHeader title={member.organization.name} description="Overview" />;
}
