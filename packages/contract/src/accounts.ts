import { z } from 'zod';
import { emailSchema, passwordSchema } from './schemas.ts';

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
