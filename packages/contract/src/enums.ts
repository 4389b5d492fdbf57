export const userRoles = ['buyer', 'seller', 'admin'] as const;
export type UserRole = (typeof userRoles)[number];

/** Roles a person may choose for themselves; admin is only ever granted. */
export const selfServiceRoles = ['buyer', 'seller'] as const;
export type SelfServiceRole = (typeof selfServiceRoles)[number];

export const conditions = ['Excellent', 'Good', 'Fair'] as const;
export type Condition = (typeof conditions)[number];

/** inStock values: only 'available' permits wishing and booking. */
export const stockStates = ['available', 'sold'] as const;
export type StockState = (typeof stockStates)[number];

export const paymentStatuses = ['unpaid', 'paid'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
