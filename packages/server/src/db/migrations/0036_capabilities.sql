CREATE TYPE "public"."user_capability" AS ENUM('buy', 'sell', 'admin');--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "capabilities" "user_capability"[];--> statement-breakpoint
-- Sellers buy too; an admin keeps buying and selling where the account already did before it was made an admin.
UPDATE "users" u SET "capabilities" = CASE u."role"
  WHEN 'buyer' THEN ARRAY['buy']::"user_capability"[]
  WHEN 'seller' THEN ARRAY['buy', 'sell']::"user_capability"[]
  ELSE ARRAY['admin']::"user_capability"[]
    || CASE WHEN EXISTS (SELECT 1 FROM "bookings" b WHERE b."buyer_id" = u."id")
          OR EXISTS (SELECT 1 FROM "wishes" w WHERE w."buyer_id" = u."id")
          OR EXISTS (SELECT 1 FROM "conversations" c WHERE c."buyer_id" = u."id")
        THEN ARRAY['buy']::"user_capability"[] ELSE '{}' END
    || CASE WHEN EXISTS (SELECT 1 FROM "products" p WHERE p."seller_id" = u."id")
        THEN ARRAY['sell']::"user_capability"[] ELSE '{}' END
END;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "capabilities" SET NOT NULL;
