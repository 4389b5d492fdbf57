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

/** POST /api/me/email: the current password proves the owner, when the account has one. */
export const emailChangeBody = z.object({
  email: emailSchema,
  currentPassword: z.string().max(256).optional(),
});

/** POST /api/auth/change-email */
export const changeEmailBody = z.object({ token: accountTokenSchema });

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

/**
 * What the browser's passkey call answers (WebAuthn's JSON form, as @simplewebauthn/browser makes
 * it). The server checks everything inside; this only bounds its size.
 */
const passkeyResponse = z.looseObject({
  id: z.string({ error: 'response.id is required' }).min(1, 'response.id is required').max(1_024),
  rawId: z.string({ error: 'response.rawId is required' }).max(1_024),
  type: z.literal('public-key', { error: 'response.type must be public-key' }),
  response: z.looseObject({ clientDataJSON: z.string({ error: 'response.response.clientDataJSON is required' }).max(8_192) }),
  clientExtensionResults: z.looseObject({}),
});

/** POST /api/me/passkeys and POST /api/auth/passkey: the passkey's answer to the challenge of the options. */
export const passkeyBody = z.object({ response: passkeyResponse });

/** The options the browser's passkey call takes (WebAuthn's JSON form); each holds a single-use challenge. */
export const passkeyOptions = z.looseObject({ challenge: z.string() });

/** A passkey of the account. */
export const accountPasskey = z.object({
  _id: z.string(),
  /** The browser and system it was added on. */
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type AccountPasskey = z.infer<typeof accountPasskey>;
