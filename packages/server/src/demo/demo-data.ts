import { sql } from 'drizzle-orm';
import type { Condition } from '@furniture/contract';
import type { Database } from '../db/client.ts';
import { createCategory, createProduct, createUser } from '../db/factories.ts';
import { categories, users } from '../db/schema/index.ts';
import { scheduleListingExpiry } from '../sales/listing-expiry.ts';

/** The demo accounts; the README lists the same. */
export const demoAccounts = [
  { role: 'admin', name: 'Demo Admin', email: 'admin@demo.furniture', password: 'Admin1234' },
  { role: 'seller', name: 'Demo Seller', email: 'seller@demo.furniture', password: 'Seller1234' },
  { role: 'buyer', name: 'Demo Buyer', email: 'buyer@demo.furniture', password: 'Buyer1234' },
] as const;

type DemoProduct = [name: string, picture: string, condition: Condition, years: string, original: number, resale: number, advertised: boolean, description: string];

const catalogue: { categoryName: string; picture: string; description: string; products: DemoProduct[] }[] = [
  {
    categoryName: 'Living Room',
    picture: 'sofa-1',
    description: 'Sofas, armchairs and lamps to make a room feel like home.',
    products: [
      ['Three-seat fabric sofa', 'sofa-1', 'Good', '3 years', 900, 420, true, 'Deep seats, removable covers washed last month. No pets, no smoke.'],
      ['Velvet two-seat sofa', 'sofa-2', 'Excellent', '1 year', 750, 520, false, 'Barely used in a guest room. Teal velvet, solid beech legs.'],
      ['Reading armchair', 'armchair-1', 'Fair', '6 years', 400, 90, false, 'Comfortable and sturdy; the arms show some wear.'],
      ['Arc floor lamp', 'lamp-1', 'Good', '2 years', 180, 70, true, 'Warm light, dimmable bulb included.'],
    ],
  },
  {
    categoryName: 'Bedroom',
    picture: 'bed-1',
    description: 'Beds, wardrobes and dressers, checked and ready for a new home.',
    products: [
      ['Queen bed frame', 'bed-1', 'Good', '4 years', 650, 260, true, 'Solid pine frame with slatted base. Mattress not included.'],
      ['Single bed with headboard', 'bed-2', 'Excellent', '1 year', 320, 210, false, 'Bought for a kid who preferred the bunk bed.'],
      ['Two-door wardrobe', 'wardrobe-1', 'Good', '5 years', 540, 230, false, 'Hanging rail and two shelves inside. Comes apart for transport.'],
      ['Six-drawer dresser', 'dresser-1', 'Fair', '8 years', 480, 120, false, 'All drawers run smoothly; top has a small scratch.'],
    ],
  },
  {
    categoryName: 'Dining',
    picture: 'table-1',
    description: 'Tables and chairs for everyday meals and long dinners.',
    products: [
      ['Oak dining table', 'table-1', 'Excellent', '2 years', 1200, 780, true, 'Seats six. Oiled oak, no marks.'],
      ['Set of four dining chairs', 'chair-1', 'Good', '3 years', 480, 200, false, 'Matching set, seats recently re-upholstered.'],
      ['Round bistro table', 'table-2', 'Fair', '7 years', 260, 60, false, 'Perfect for a balcony or a small kitchen.'],
    ],
  },
  {
    categoryName: 'Office',
    picture: 'desk-1',
    description: 'Desks, chairs and shelves for working from home.',
    products: [
      ['Writing desk with drawers', 'desk-1', 'Good', '3 years', 420, 190, true, 'Three drawers, cable hole at the back.'],
      ['Ergonomic desk chair', 'chair-2', 'Excellent', '1 year', 380, 240, false, 'Adjustable height and lumbar support.'],
      ['Tall bookshelf', 'bookshelf-1', 'Good', '4 years', 220, 80, false, 'Five shelves, anchored to the wall before; fixings included.'],
      ['Desk lamp', 'lamp-2', 'Excellent', '6 months', 90, 45, false, 'LED, three brightness levels.'],
    ],
  },
];

export const demoPictureUrl = (publicUrl: string, picture: string) => `${publicUrl}/demo/${picture}.svg`;

/**
 * Loads the demo catalogue when the catalogue is empty: one account per role, four categories and
 * fifteen products with pictures the app serves itself. Accounts made before (an ADMIN_EMAIL admin,
 * say) do not stop it; a demo account that already exists is kept as it is. Does nothing once any
 * category exists.
 */
export async function loadDemoData(db: Database, publicUrl: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Several app servers may start at once on one database: only one loads the demo data.
    await tx.execute(sql`select pg_advisory_xact_lock(4207312882)`);
    const [{ count }] = (await tx.select({ count: sql<number>`count(*)::int` }).from(categories)) as [{ count: number }];
    if (count > 0) return false;

    const accounts = new Map<string, { id: string }>();
    for (const account of demoAccounts) {
      const [existing] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${account.email}`);
      accounts.set(
        account.role,
        existing ??
          (await createUser(tx, {
            name: account.name,
            email: account.email,
            role: account.role,
            password: account.password,
            verified: account.role !== 'buyer',
            image: demoPictureUrl(publicUrl, 'armchair-2'),
          })),
      );
    }
    const sellerId = accounts.get('seller')!.id;
    let minutesAgo = 0;
    for (const entry of catalogue) {
      const category = await createCategory(tx, {
        categoryName: entry.categoryName,
        description: entry.description,
        image: demoPictureUrl(publicUrl, entry.picture),
      });
      for (const [productName, picture, condition, years, original, resale, advertisement, description] of entry.products) {
        minutesAgo += 37;
        const product = await createProduct(
          tx,
          { categoryId: category.id, sellerId },
          {
            productName,
            condition,
            yearsOfUsedProduct: years,
            originalPrice: original.toFixed(2),
            resalePrice: resale.toFixed(2),
            advertisement,
            description,
            location: 'Dhanmondi, Dhaka',
            productImage: demoPictureUrl(publicUrl, picture),
            postedAt: new Date(Date.now() - minutesAgo * 60_000),
          },
        );
        await scheduleListingExpiry(tx, product.id, product.expiresAt);
      }
    }
    return true;
  });
}
