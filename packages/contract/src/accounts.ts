import { z } from 'zod';
import { emailSchema, imageUrlSchema, passwordSchema, phone, requiredText } from './schemas.ts';

/** The links the marketplace e-mails about an account carry one of these; each is single-use. */
export const accountTokenSchema = z
  .string({ error: 'token is required' })
  .min(1, 'token is required')
  .max(200, 'token is too long');

/** POST /api/auth/forgot-password */
export const forgotPasswordBody = z.object({ email: emailSchema });

/** POST /api/auth/reset-password: the signup rules apply to the new password. */
export const resetPasswordBody = z.object({ token: accountTokenSchema, password: passwordSchema });

/** POST /api/auth/verify-email */
export const verifyEmailBody = z.object({ token: accountTokenSchema });

/** PATCH /api/me: only the fields sent change; null clears the phone or the town. */
export const profileChangeBody = z
  .object({
    name: requiredText('name', 100).optional(),
    image: imageUrlSchema.optional(),
    phone: phone('phone').nullable().optional(),
    location: requiredText('location', 200).nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Send at least one of name, image, phone and location');

/** POST /api/me/password */
export const passwordChangeBody = z.object({
  currentPassword: z.string({ error: 'currentPassword is required' }).min(1, 'currentPassword is required').max(256),
  newPassword: passwordSchema,
});

/** The signed-in account as its owner sees it: the public profile and the private details. */
export const ownAccount = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.string().nullable(),
  phone: z.string().nullable(),
  location: z.string().nullable(),
  emailVerified: z.boolean(),
  hasPassword: z.boolean(),
});
export type OwnAccount = z.infer<typeof ownAccount>;

/** One open session (sign-in) of the account. */
export const accountSession = z.object({
  _id: z.string(),
  /** Browser and system, read from the user agent. */
  device: z.string(),
  /** The network address it was last used from: nothing more is known of the place. */
  address: z.string().nullable(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;
