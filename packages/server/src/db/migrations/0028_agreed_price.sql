-- The price a booking's payment must have, in cents, kept from the booking's own price (decision 32):
-- existing bookings get theirs as the column is added, and it cannot drift from the price shown.
ALTER TABLE "bookings" ADD COLUMN "agreed_price_cents" integer GENERATED ALWAYS AS ((product_price * 100)::integer) STORED NOT NULL;
