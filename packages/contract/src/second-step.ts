import { z } from 'zod';
import { tokenResponse } from './schemas.ts';

/** How many one-time recovery codes turning on the authenticator app gives (decision 38). */
export const RECOVERY_CODE_COUNT = 10;

/** Two-step sign-in: an authenticator app's codes, recovery codes, or a passkey (decision 38). */
export const secondStepTexts = {
  settings: {
    title: 'Two-step sign-in',
    intro: 'After your password, sign-in asks for a code from an authenticator app on your phone. Signing in with a passkey counts as both steps.',
    adminNeeded: 'Admins need two-step sign-in to use the admin pages. Set it up here.',
    on: 'Two-step sign-in with an authenticator app is on.',
    off: 'Two-step sign-in with an authenticator app is off.',
    recoveryCodesLeft: (count: number) => `${count} unused recovery ${count === 1 ? 'code' : 'codes'} left.`,
    start: 'Set up an authenticator app',
    addToApp: 'In your authenticator app, add an account with this key, or open the set-up link on the phone that has the app.',
    key: 'Key',
    setUpLink: 'Set-up link',
    code: 'Code from the app',
    turnOn: 'Turn on',
    recoveryTitle: 'Your recovery codes',
    recoveryIntro: 'Keep these codes somewhere safe. If you lose your phone, each one signs you in once. They are shown only now.',
    recoveryKept: 'I have kept them',
    turnOff: 'Turn off',
    turnOffProof: 'Your password, or a code from the app',
  },
  login: {
    heading: 'Two-step sign-in',
    code: 'Code from your authenticator app',
    recoveryCode: 'Recovery code',
    useRecoveryCode: 'Use a recovery code instead',
    useCode: 'Use a code from the app instead',
    continue: 'Continue',
  },
  server: {
    needed: 'Enter the code from your authenticator app to finish signing in.',
    started: 'Add the key to your authenticator app, then enter the code it shows.',
    turnedOn: 'Two-step sign-in is on. Keep your recovery codes safe.',
    turnedOff: 'Two-step sign-in is off.',
    wrongCode: 'That code is not right, or it was already used. Enter the newest code from your app.',
    wrongRecoveryCode: 'That recovery code is not right, or it was already used.',
    wrongProof: 'That password or code is not right.',
    sendCodeOrRecoveryCode: 'Enter a code from your authenticator app or a recovery code.',
    sendPasswordOrCode: 'Enter your password or a code from your authenticator app.',
    signInExpired: 'Your sign-in took too long. Sign in again.',
    notStarted: 'Start setting up the authenticator app first.',
    alreadyOn: 'Two-step sign-in is already on. Turn it off first to set up another app.',
    notOn: 'Two-step sign-in is not on.',
    tooManyCodes: 'Too many codes were tried.',
    adminSetUp: 'Admins must turn on two-step sign-in first. Set it up in Settings, under Two-step sign-in.',
    adminSignInAgain: 'To use the admin pages, sign in again with your authenticator code or your passkey.',
  },
  mail: {
    turnedOnSubject: 'Two-step sign-in is on',
    turnedOnParagraphs: (name: string) => [`Hello ${name},`, 'Signing in to your account now asks for a code from your authenticator app.'],
    turnedOffSubject: 'Two-step sign-in is off',
    turnedOffParagraphs: (name: string) => [`Hello ${name},`, 'Signing in to your account no longer asks for a code from an authenticator app.'],
    recoveryCodeUsedSubject: 'A recovery code was used',
    recoveryCodeUsedParagraphs: (name: string, left: number) => [
      `Hello ${name},`,
      `Someone signed in to your account with one of its recovery codes. ${left} unused ${left === 1 ? 'code is' : 'codes are'} left.`,
    ],
  },
} as const;

const code = z
  .string({ error: 'code is required' })
  .trim()
  .regex(/^\d{6}$/, 'code must be the 6 digits the app shows');
const recoveryCode = z.string().trim().min(1, 'recoveryCode is required').max(50, 'recoveryCode is too long');

/** POST /api/auth/login when the account has a second step: no session yet, a challenge to finish with. */
export const secondStepNeeded = z.object({
  success: z.literal(true),
  secondStepNeeded: z.literal(true),
  /** Short-lived proof that the password was right, for POST /api/auth/second-step. */
  challenge: z.string(),
  message: z.string(),
});
export type SecondStepNeeded = z.infer<typeof secondStepNeeded>;

/** What the password sign-in answers: a session's token, or (with a second step) a challenge. */
export const loginResponse = z.union([tokenResponse, secondStepNeeded]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** POST /api/auth/second-step: the challenge with a code from the app or a recovery code. */
export const secondStepBody = z
  .object({ challenge: z.string({ error: 'challenge is required' }).min(1, 'challenge is required').max(500), code: code.optional(), recoveryCode: recoveryCode.optional() })
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), secondStepTexts.server.sendCodeOrRecoveryCode);

/** GET /api/me/second-step */
export const secondStepStatus = z.object({
  _id: z.string(),
  authenticatorApp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /**
   * What this session of an admin lacks for the admin pages: nothing, a second step to set up, or
   * a sign-in that used it (always nothing for other accounts, and with ADMIN_SECOND_STEP=optional).
   */
  adminNeeds: z.enum(['nothing', 'set-up', 'sign-in-again']),
});
export type SecondStepStatus = z.infer<typeof secondStepStatus>;

/** POST /api/me/second-step/totp: a new secret to add to the authenticator app. */
export const totpEnrolment = z.object({ _id: z.string(), secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolment>;

/** POST /api/me/second-step/totp/confirm */
export const totpConfirmBody = z.object({ code });
export type TotpConfirmBody = z.infer<typeof totpConfirmBody>;

/** The recovery codes, shown once. */
export const recoveryCodesResult = z.object({ _id: z.string(), recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResult = z.infer<typeof recoveryCodesResult>;

/** DELETE /api/me/second-step: the password or a current code proves the owner. */
export const secondStepOffBody = z
  .object({ password: z.string().max(256).optional(), code: code.optional() })
  .refine((body) => Boolean(body.password) || body.code !== undefined, secondStepTexts.server.sendPasswordOrCode);
export type SecondStepOffBody = z.infer<typeof secondStepOffBody>;
