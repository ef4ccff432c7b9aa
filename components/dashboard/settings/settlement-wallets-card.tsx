import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { Field, inputStyles } from "@/components/ui/field";
import type { SettlementChange } from "@/lib/generated/prisma/client";
import type { WalletNetwork } from "@/lib/organizations/list-wallet-networks";
import { PendingSettlementChanges } from "../pending-settlement-changes";
import { ReadOnlyNote } from "./read-only-note";

/** One settlement address per network: a form for owners, a list for everyone else. */
export function SettlementWalletsCard<T>({
  organizationName,
  networks,
  wallets,
  pending,
  update,
}: {
  organizationName: string;
  networks: WalletNetwork[];
  /** Address by network id. */
  wallets: Map<string, string>;
  /** Changes not in force yet: they are listed, the inputs show the wallets in force. */
  pending: SettlementChange[];
  /** The update action, for owners; absent, the wallets are shown read-only. */
  update?: FormAction<T>;
}) {
  return (
    <Card
      title="Settlement wallets"
      description="Where you are paid, one address per network. Mixed-case EVM addresses are checked against their EIP-55 checksum; on Solana, enter a wallet (base58), not a token account. A network's first wallet applies at once; a change of a wallet takes effect after a delay, and every owner is emailed."
      className="lg:col-span-2"
    >
      <div className="flex flex-col gap-5 p-5">
        <PendingSettlementChanges changes={pending} />
        {update ? (
          <ActionForm
            action={update}
            submitLabel="Save wallets"
            success="Saved. Changes of a wallet are listed above with when they take effect."
          >
            <div className="grid gap-4 md:grid-cols-2">
              {networks.map((network) => (
                <Field
                  key={network.id}
                  label={network.name}
                  hint={
                    network.accepting
                      ? "Buyers can pay on this network."
                      : "Not accepting payments on this service."
                  }
                >
                  <input
                    className={`${inputStyles} font-mono`}
                    name={network.id}
                    defaultValue={wallets.get(network.id) ?? ""}
                    placeholder={network.address.input.placeholder}
                    spellCheck={false}
                    autoComplete="off"
                    pattern={network.address.input.pattern}
                    title={network.address.format}
                  />
                </Field>
              ))}
            </div>
          </ActionForm>
        ) : (
          <div className="flex flex-col gap-3">
            <dl className="flex flex-col gap-2 text-sm">
              {networks.map((network) => (
                <div key={network.id} className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
                  <dt className="shrink-0 text-slate-500 sm:w-48">{network.name}</dt>
                  <dd className="min-w-0 break-all font-mono text-slate-900">
                    {wallets.get(network.id) ?? <span className="font-sans text-slate-600">Not set</span>}
                  </dd>
                </div>
              ))}
            </dl>
            <ReadOnlyNote organization={organizationName} />
          </div>
        )}
      </div>
    </Card>
  );
}
