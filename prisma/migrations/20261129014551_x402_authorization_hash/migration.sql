-- The hash of the signed authorization and its signature: a request reusing a known nonce with
-- other fields is refused (authorization_mismatch), not answered as the known payment. Rows written
-- before it have none, and their stored payTo, amount and validBefore are compared instead.
-- AlterTable
ALTER TABLE "X402Settlement" ADD COLUMN     "authorizationHash" TEXT;
