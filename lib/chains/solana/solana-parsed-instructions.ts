import { getBase58Decoder, getUtf8Decoder, type Instruction } from "@solana/kit";
import { parseSystemInstruction, SYSTEM_PROGRAM_ADDRESS, SystemInstruction } from "@solana-program/system";
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  AssociatedTokenInstruction,
  parseAssociatedTokenInstruction,
  parseTokenInstruction,
  TOKEN_PROGRAM_ADDRESS,
  TokenInstruction,
} from "@solana-program/token";
import { uiTokenAmount } from "./token-amounts";

// getTransaction's jsonParsed form of an instruction: `{program, programId, parsed: {type, info}}`
// with the field names the Solana RPC gives, for the programs and instructions a payment uses
// (system transfers and account creation, token transfers, mints and account set-up, associated
// token accounts, memos). Any other instruction keeps the raw form the RPC gives an unknown
// program: `{programId, accounts, data}`.

/** The memo programs (v1 and v2): their parsed form is the memo's text. */
export const memoPrograms: readonly string[] = [
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
];

type Parsed = { accounts: Record<string, { address: string } | undefined>; data: Record<string, unknown> };
type Info = (parsed: Parsed) => Record<string, unknown>;

const amount = (parsed: Parsed) => String(parsed.data.amount);
const tokenAmount = (parsed: Parsed) =>
  uiTokenAmount(BigInt(String(parsed.data.amount)), Number(parsed.data.decimals));
const address = (parsed: Parsed, name: string) => parsed.accounts[name]?.address;
const option = (value: unknown) => {
  const held = value as { __option: "Some"; value: unknown } | { __option: "None" } | undefined;
  return held?.__option === "Some" ? held.value : undefined;
};

const systemInfo: Partial<Record<SystemInstruction, [string, Info]>> = {
  [SystemInstruction.TransferSol]: [
    "transfer",
    (p) => ({
      source: address(p, "source"),
      destination: address(p, "destination"),
      lamports: p.data.amount,
    }),
  ],
  [SystemInstruction.CreateAccount]: [
    "createAccount",
    (p) => ({
      source: address(p, "payer"),
      newAccount: address(p, "newAccount"),
      lamports: p.data.lamports,
      space: p.data.space,
      owner: p.data.programAddress,
    }),
  ],
  [SystemInstruction.Assign]: [
    "assign",
    (p) => ({ account: address(p, "account"), owner: p.data.programAddress }),
  ],
  [SystemInstruction.Allocate]: [
    "allocate",
    (p) => ({ account: address(p, "newAccount"), space: p.data.space }),
  ],
};

const tokenInfo: Partial<Record<TokenInstruction, [string, Info]>> = {
  [TokenInstruction.Transfer]: [
    "transfer",
    (p) => ({
      source: address(p, "source"),
      destination: address(p, "destination"),
      authority: address(p, "authority"),
      amount: amount(p),
    }),
  ],
  [TokenInstruction.TransferChecked]: [
    "transferChecked",
    (p) => ({
      source: address(p, "source"),
      mint: address(p, "mint"),
      destination: address(p, "destination"),
      authority: address(p, "authority"),
      tokenAmount: tokenAmount(p),
    }),
  ],
  [TokenInstruction.MintTo]: [
    "mintTo",
    (p) => ({
      mint: address(p, "mint"),
      account: address(p, "token"),
      mintAuthority: address(p, "mintAuthority"),
      amount: amount(p),
    }),
  ],
  [TokenInstruction.MintToChecked]: [
    "mintToChecked",
    (p) => ({
      mint: address(p, "mint"),
      account: address(p, "token"),
      mintAuthority: address(p, "mintAuthority"),
      tokenAmount: tokenAmount(p),
    }),
  ],
  [TokenInstruction.Burn]: [
    "burn",
    (p) => ({
      account: address(p, "account"),
      mint: address(p, "mint"),
      authority: address(p, "authority"),
      amount: amount(p),
    }),
  ],
  [TokenInstruction.BurnChecked]: [
    "burnChecked",
    (p) => ({
      account: address(p, "account"),
      mint: address(p, "mint"),
      authority: address(p, "authority"),
      tokenAmount: tokenAmount(p),
    }),
  ],
  [TokenInstruction.CloseAccount]: [
    "closeAccount",
    (p) => ({
      account: address(p, "account"),
      destination: address(p, "destination"),
      owner: address(p, "owner"),
    }),
  ],
  [TokenInstruction.InitializeMint2]: [
    "initializeMint2",
    (p) => ({
      mint: address(p, "mint"),
      decimals: p.data.decimals,
      mintAuthority: p.data.mintAuthority,
      freezeAuthority: option(p.data.freezeAuthority),
    }),
  ],
  [TokenInstruction.InitializeAccount3]: [
    "initializeAccount3",
    (p) => ({ account: address(p, "account"), mint: address(p, "mint"), owner: p.data.owner }),
  ],
  [TokenInstruction.InitializeImmutableOwner]: [
    "initializeImmutableOwner",
    (p) => ({ account: address(p, "account") }),
  ],
  [TokenInstruction.GetAccountDataSize]: ["getAccountDataSize", (p) => ({ mint: address(p, "mint") })],
};

const associatedAccounts: Info = (p) => ({
  source: address(p, "payer"),
  account: address(p, "ata"),
  wallet: address(p, "owner"),
  mint: address(p, "mint"),
  systemProgram: address(p, "systemProgram"),
  tokenProgram: address(p, "tokenProgram"),
});
const associatedInfo: Partial<Record<AssociatedTokenInstruction, [string, Info]>> = {
  [AssociatedTokenInstruction.CreateAssociatedToken]: ["create", associatedAccounts],
  [AssociatedTokenInstruction.CreateAssociatedTokenIdempotent]: ["createIdempotent", associatedAccounts],
};

const parsers: Record<
  string,
  { program: string; parse: (instruction: never) => unknown; table: Partial<Record<number, [string, Info]>> }
> = {
  [SYSTEM_PROGRAM_ADDRESS]: { program: "system", parse: parseSystemInstruction, table: systemInfo },
  [TOKEN_PROGRAM_ADDRESS]: { program: "spl-token", parse: parseTokenInstruction, table: tokenInfo },
  [ASSOCIATED_TOKEN_PROGRAM_ADDRESS]: {
    program: "spl-associated-token-account",
    parse: parseAssociatedTokenInstruction,
    table: associatedInfo,
  },
};

/** An instruction in getTransaction's jsonParsed form; `stackHeight` is null for top-level ones. */
export function parsedInstruction(instruction: Instruction, stackHeight: number | null) {
  const programId = instruction.programAddress;
  const data = instruction.data ?? new Uint8Array();
  if (memoPrograms.includes(programId)) {
    try {
      return { program: "spl-memo", programId, parsed: getUtf8Decoder().decode(data), stackHeight };
    } catch {
      // Not UTF-8: shown raw below.
    }
  }
  const parser = parsers[programId];
  if (parser) {
    try {
      const parsed = parser.parse(instruction as never) as Parsed & { instructionType: number };
      const entry = parser.table[parsed.instructionType];
      if (entry) {
        const info = Object.fromEntries(
          Object.entries(entry[1](parsed)).filter(([, value]) => value !== undefined),
        );
        return { program: parser.program, programId, parsed: { type: entry[0], info }, stackHeight };
      }
    } catch {
      // Data the program's client cannot read: shown raw below, as the RPC shows what it cannot parse.
    }
  }
  return {
    programId,
    accounts: (instruction.accounts ?? []).map((account) => account.address),
    data: getBase58Decoder().decode(data),
    stackHeight,
  };
}
