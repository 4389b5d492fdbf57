import { sql } from 'drizzle-orm';
import type { Condition } from '@furniture/contract';
import type { Database } from '../db/client.ts';
import { createCategory, createProduct, createUser } from './factories.ts';
import { categories, users } from '../db/schema/index.ts';
import { scheduleListingExpiry } from '../products/listing-expiry.ts';

/** The demo accounts; the README lists the same. */
export const demoAccounts = [
  { role: 'admin', name: 'Demo Admin', email: 'admin@demo.furniture', password: 'Admin1234' },
  { role: 'seller', name: 'Demo Seller', email: 'seller@demo.furniture', password: 'Seller1234' },
  { role: 'buyer', name: 'Demo Buyer', email: 'buyer@demo.furniture', password: 'Buyer1234' },
] as const;

/**
 * A demo listing: its pictures (the first is the cover), real measurements in centimetres (width,
 * depth, height) so "Will it fit?" finds pieces on a first start, and its town.
 */
interface DemoProduct {
  name: string;
  pictures: string[];
  condition: Condition;
  years: string;
  original: number;
  resale: number;
  advertised?: boolean;
  description: string;
  size: [widthCm: number, depthCm: number, heightCm: number];
  town: string;
}

const catalogue: { categoryName: string; picture: string; description: string; products: DemoProduct[] }[] = [
  {
    categoryName: 'Living Room',
    picture: 'sofa-1',
    description: 'Sofas, armchairs and lamps to make a room feel like home.',
    products: [
      { name: 'Three-seat fabric sofa', pictures: ['sofa-1', 'sofa-2', 'armchair-2'], condition: 'Good', years: '3 years', original: 900, resale: 420, advertised: true, description: 'Deep seats, removable covers washed last month. No pets, no smoke.', size: [215, 92, 84], town: 'Dhanmondi, Dhaka' },
      { name: 'Velvet two-seat sofa', pictures: ['sofa-2', 'sofa-1'], condition: 'Excellent', years: '1 year', original: 750, resale: 520, description: 'Barely used in a guest room. Teal velvet, solid beech legs.', size: [165, 85, 80], town: 'Gulshan, Dhaka' },
      { name: 'Reading armchair', pictures: ['armchair-1', 'armchair-2'], condition: 'Fair', years: '6 years', original: 400, resale: 90, description: 'Comfortable and sturdy; the arms show some wear.', size: [78, 82, 98], town: 'Chattogram' },
      { name: 'Arc floor lamp', pictures: ['lamp-1', 'lamp-2'], condition: 'Good', years: '2 years', original: 180, resale: 70, advertised: true, description: 'Warm light, dimmable bulb included.', size: [40, 110, 190], town: 'Dhanmondi, Dhaka' },
    ],
  },
  {
    categoryName: 'Bedroom',
    picture: 'bed-1',
    description: 'Beds, wardrobes and dressers, checked and ready for a new home.',
    products: [
      { name: 'Queen bed frame', pictures: ['bed-1', 'bed-2'], condition: 'Good', years: '4 years', original: 650, resale: 260, advertised: true, description: 'Solid pine frame with slatted base. Mattress not included.', size: [165, 210, 95], town: 'Uttara, Dhaka' },
      { name: 'Single bed with headboard', pictures: ['bed-2', 'bed-1'], condition: 'Excellent', years: '1 year', original: 320, resale: 210, description: 'Bought for a kid who preferred the bunk bed.', size: [100, 205, 90], town: 'Dhanmondi, Dhaka' },
      { name: 'Two-door wardrobe', pictures: ['wardrobe-1', 'wardrobe-2'], condition: 'Good', years: '5 years', original: 540, resale: 230, description: 'Hanging rail and two shelves inside. Comes apart for transport.', size: [100, 58, 190], town: 'Sylhet' },
      { name: 'Six-drawer dresser', pictures: ['dresser-1', 'dresser-2'], condition: 'Fair', years: '8 years', original: 480, resale: 120, description: 'All drawers run smoothly; top has a small scratch.', size: [120, 45, 80], town: 'Gulshan, Dhaka' },
    ],
  },
  {
    categoryName: 'Dining',
    picture: 'table-1',
    description: 'Tables and chairs for everyday meals and long dinners.',
    products: [
      { name: 'Oak dining table', pictures: ['table-1', 'table-2', 'chair-1'], condition: 'Excellent', years: '2 years', original: 1200, resale: 780, advertised: true, description: 'Seats six. Oiled oak, no marks.', size: [180, 90, 75], town: 'Dhanmondi, Dhaka' },
      { name: 'Set of four dining chairs', pictures: ['chair-1', 'chair-2'], condition: 'Good', years: '3 years', original: 480, resale: 200, description: 'Matching set, seats recently re-upholstered.', size: [45, 52, 88], town: 'Chattogram' },
      { name: 'Round bistro table', pictures: ['table-2', 'table-1'], condition: 'Fair', years: '7 years', original: 260, resale: 60, description: 'Perfect for a balcony or a small kitchen.', size: [70, 70, 74], town: 'Uttara, Dhaka' },
    ],
  },
  {
    categoryName: 'Office',
    picture: 'desk-1',
    description: 'Desks, chairs and shelves for working from home.',
    products: [
      { name: 'Writing desk with drawers', pictures: ['desk-1', 'desk-2'], condition: 'Good', years: '3 years', original: 420, resale: 190, advertised: true, description: 'Three drawers, cable hole at the back.', size: [120, 60, 76], town: 'Gulshan, Dhaka' },
      { name: 'Ergonomic desk chair', pictures: ['chair-2', 'chair-1'], condition: 'Excellent', years: '1 year', original: 380, resale: 240, description: 'Adjustable height and lumbar support.', size: [65, 65, 115], town: 'Dhanmondi, Dhaka' },
      { name: 'Tall bookshelf', pictures: ['bookshelf-1', 'bookshelf-2'], condition: 'Good', years: '4 years', original: 220, resale: 80, description: 'Five shelves, anchored to the wall before; fixings included.', size: [80, 30, 200], town: 'Sylhet' },
      { name: 'Desk lamp', pictures: ['lamp-2', 'lamp-1'], condition: 'Excellent', years: '6 months', original: 90, resale: 45, description: 'LED, three brightness levels.', size: [18, 18, 45], town: 'Uttara, Dhaka' },
    ],
  },
];

export const demoPictureUrl = (publicUrl: string, picture: string) => `${publicUrl}/demo/${picture}.svg`;

/**
 * Loads the demo catalogue when the catalogue is empty: one account per role, four categories and
 * fifteen products in a few towns, each with its measurements and several pictures the app serves
 * itself. Accounts made before (an ADMIN_EMAIL admin, say) do not stop it; a demo account that
 * already exists is kept as it is. Does nothing once any category exists.
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
            // The demo admin sets up two-step sign-in itself, at its first admin page (decision 38).
            totpSecret: null,
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
      for (const piece of entry.products) {
        minutesAgo += 37;
        const [widthCm, depthCm, heightCm] = piece.size;
        const product = await createProduct(
          tx,
          { categoryId: category.id, sellerId },
          {
            productName: piece.name,
            condition: piece.condition,
            yearsOfUsedProduct: piece.years,
            originalPrice: piece.original.toFixed(2),
            resalePrice: piece.resale.toFixed(2),
            advertisement: piece.advertised ?? false,
            description: piece.description,
            location: piece.town,
            photos: piece.pictures.map((picture) => demoPictureUrl(publicUrl, picture)),
            measurements: { widthCm, depthCm, heightCm },
            postedAt: new Date(Date.now() - minutesAgo * 60_000),
          },
        );
        await scheduleListingExpiry(tx, product.id, product.expiresAt);
      }
    }
    return true;
  });
}
