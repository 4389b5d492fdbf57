/*
 * The words of the account's own pages, e-mails and answers: resetting a password and verifying an
 * e-mail. Apart from the schemas of accounts.ts, so that pages which only show these words do not
 * download zod (docs/decisions/0026).
 */

/** How long the links e-mailed about an account work. */
export const RESET_LINK_HOURS = 1;
export const VERIFY_LINK_HOURS = 24;

export const accountTexts = {
  forgot: {
    link: 'Forgot password?',
    title: 'Reset your password',
    intro: 'Enter the e-mail of your account. We will send you a link to choose a new password.',
    email: 'E-mail',
    send: 'Send the link',
    /** The same answer whether or not the address has an account, so nobody learns who has one. */
    sent: `If an account uses this e-mail, a link to choose a new password is on its way. It works for ${RESET_LINK_HOURS} hour.`,
    backToLogin: 'Back to log in',
  },
  reset: {
    title: 'Choose a new password',
    password: 'New password',
    save: 'Save the new password',
    done: 'Your new password is saved and you are signed in. Every other device was signed out.',
    noToken: 'This page needs the link from the e-mail. Ask for a new link.',
    askAgain: 'Ask for a new link',
  },
  verify: {
    title: 'Verify your e-mail',
    working: 'Verifying your e-mail…',
    done: 'Your e-mail is verified.',
    bannerLabel: 'E-mail not verified',
    banner: 'Please verify your e-mail: we sent you a link. Until then you cannot publish a listing or pay.',
    resend: 'Send the link again',
    resent: 'A new link is on its way. Check your inbox.',
    noToken: 'This page needs the link from the e-mail.',
    toDashboard: 'Go to your dashboard',
  },
  settings: {
    title: 'Settings',
    menu: 'Settings',
    profile: 'Your details',
    name: 'Name',
    photo: 'Photo',
    phone: 'Phone',
    phoneHint: 'Booking forms start with it.',
    location: 'Town',
    saveProfile: 'Save details',
    profileSaved: 'Your details are saved.',
    password: 'Password',
    currentPassword: 'Current password',
    newPassword: 'New password',
    savePassword: 'Change password',
    noPasswordYet: 'Your account has no password yet: ask for a link to choose one.',
    sessions: 'Where you are signed in',
    thisDevice: 'This device',
    lastSeen: (when: string) => `Last active ${when}`,
    unknownAddress: 'Address not known',
    signOutSession: 'Sign out',
    signOutOthers: 'Sign out everywhere else',
    unknownDevice: 'Unknown browser',
    device: (browser: string, system: string) => `${browser} on ${system}`,
    emailPreferences: 'E-mails',
  },
  /** Answers of the API. */
  server: {
    linkInvalid: 'This link is not valid. Ask for a new one.',
    linkUsed: 'This link has already been used. Ask for a new one if you need it.',
    linkExpired: 'This link has expired. Ask for a new one.',
    resetLinkSent: `If an account uses this e-mail, a link to choose a new password is on its way. It works for ${RESET_LINK_HOURS} hour.`,
    passwordReset: 'Your new password is saved and you are signed in',
    emailVerified: 'Your e-mail is verified',
    alreadyVerified: 'Your e-mail is already verified',
    verifyLinkSent: 'A new link is on its way. Check your inbox.',
    verifyToPublish: 'Verify your e-mail before you publish a listing: open the link we sent you, or ask for a new one on your dashboard.',
    verifyToPay: 'Verify your e-mail before you pay: open the link we sent you, or ask for a new one on your dashboard.',
    tooManyResetLinks: 'Too many requests for a new password.',
    tooManyVerifyLinks: 'Too many requests for a new link.',
    profileSaved: 'Your details are saved',
    wrongCurrentPassword: 'Your current password is not right.',
    passwordChanged: 'Your password is changed. You were signed out everywhere else.',
    noSession: 'No such session among yours',
    sessionEnded: 'That session is signed out',
    otherSessionsEnded: 'You are signed out everywhere else',
  },
  mail: {
    resetSubject: 'Choose a new password',
    resetHeading: 'Choose a new password',
    resetParagraphs: (name: string) => [
      `Hello ${name},`,
      `Someone asked to reset the password of your account. The link below works once, for ${RESET_LINK_HOURS} hour.`,
      'If it was not you, ignore this e-mail: your password stays as it is.',
    ],
    resetAction: 'Choose a new password',
    verifySubject: 'Verify your e-mail',
    verifyHeading: 'Verify your e-mail',
    verifyParagraphs: (name: string) => [
      `Hello ${name},`,
      `Open the link below to confirm this is your e-mail. It works for ${VERIFY_LINK_HOURS} hours.`,
    ],
    verifyAction: 'Verify my e-mail',
  },
} as const;
