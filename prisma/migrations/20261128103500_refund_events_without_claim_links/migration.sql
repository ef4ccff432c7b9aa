-- Refund events no longer carry the refund's claim link (a bearer link that pays whoever enters an
-- address): removed from the events already stored, which redeliveries and the events API read.
UPDATE "Event" SET "payload" = "payload" #- '{refund,claimUrl}'
WHERE "type" LIKE 'refund.%' AND "payload" -> 'refund' ? 'claimUrl';
