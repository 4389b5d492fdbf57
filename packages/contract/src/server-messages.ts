import { counted } from './counted.ts';
import { IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS } from './limits.ts';

/**
 * What the API answers when it refuses or fails, beyond the specification's own messages: written
 * for the person using the app, never naming a field the way the code does.
 */
export const serverMessages = {
  signInToContinue: 'Sign in to continue',
  notAllowed: 'You are not allowed to do this',
  invalidRequest: 'Invalid request',
  referenceRemoved: 'Something this request refers to was just removed. Reload and try again.',
  databaseUnavailable: 'The marketplace cannot reach its database right now. Please try again in a few seconds.',
  internalError: 'Something went wrong on our side. Please try again.',
  noPage: (path: string) => `No page at ${path}`,
  noRoute: (method: string, path: string) => `No route for ${method} ${path}`,
  tryAgainIn: (minutes: number) => `Try again in ${counted(minutes, 'minute')}.`,
  tooMany: {
    signInFailures: 'Too many failed sign-in attempts.',
    uploads: 'Too many uploads.',
    signUps: 'Too many sign-ups from this address.',
    accountLookups: 'Too many account look-ups from this address.',
    messages: 'Too many messages.',
    offers: 'Too many offers.',
  },
  images: {
    damaged: 'This image could not be read: the file is damaged or incomplete. Choose another image.',
    notAnImage: 'This file is not a JPEG, PNG, WebP or AVIF image. Choose an image in one of these formats.',
    tooManyPixels: (megapixels: number) =>
      `This image is ${megapixels} megapixels; the most accepted is ${IMAGE_MAX_PIXELS / 1_000_000} megapixels. Choose a smaller image.`,
    tooLarge: `This image is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MB. Choose a smaller file.`,
    chooseFile: (field: string) => `Choose an image file to upload, in the field "${field}".`,
    sendOne: (field: string) => `Send one image, in the field "${field}".`,
    sendInField: (field: string) => `Send the image in the field "${field}".`,
    sendAsForm: (field: string) => `Send the image as multipart/form-data, in the field "${field}".`,
    tooManyFields: 'This form has too many fields.',
    unreadableForm: 'The form data could not be read.',
    noBoundary: 'The form data could not be read: its Content-Type names no boundary.',
    missing: 'This image does not exist.',
  },
  admin: {
    noAccount: (email: string) => `No account with the e-mail ${email}`,
    noAccountToPromote: (email: string) => `No account with the e-mail ${email}: they must sign up before they can be made an admin`,
    cannotDeleteSelf: 'You cannot delete your own account',
    cannotDeleteAdmin: 'Admin accounts cannot be deleted',
    alreadyAdmin: (email: string) => `${email} is already an admin`,
    madeAdmin: (email: string) => `${email} is now an admin`,
  },
  categories: {
    notFound: 'No category with this id',
    exists: (name: string) => `A category named ${name} already exists`,
    added: (name: string) => `Category ${name} added`,
  },
  payments: {
    providerUnavailable: 'The payment provider is not available right now. Please try again.',
    webhookBodyMissing: 'The webhook body is missing.',
    refundPending: 'The refund could not be made yet.',
  },
  google: {
    notSetUp: 'Google sign-in is not set up on this server.',
    attemptLost: 'This sign-in attempt has expired or was started in another window. Try again.',
    unavailable: 'Google sign-in is not available right now. Try again later.',
    failed: 'Google sign-in could not be completed. Try again.',
    cancelled: 'Google sign-in was cancelled.',
    linkWithPassword: 'An account with this e-mail already exists. Enter its password once to link Google sign-in to it.',
    nothingToLink: 'There is no Google sign-in waiting to be linked. Sign in with Google again.',
    wrongPassword: 'Wrong password.',
    linkedElsewhere: 'This Google account is already linked to another account.',
    noEmail: 'Your Google account did not share an e-mail address, which an account here needs.',
    emailTaken: 'An account with this e-mail already exists. Sign in with its e-mail and password.',
    signsInAnotherWay: 'An account with this e-mail already exists and signs in another way.',
  },
} as const;
