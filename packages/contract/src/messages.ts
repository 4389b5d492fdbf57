/**
 * Every user-facing string of the specification, written once.
 * Functions build the messages that embed a value.
 */
export const messages = {
  guardLogout: 'user already log out',
  signInSuccess: 'Sign in success',
  passwordRequired: 'Password is Required',
  passwordTooShort: 'Password must be 6 characters long',
  passwordTooWeak: 'Password must have uppercase, number and special characters',
  roleRequired: 'must be select one',
  photoRequired: 'photo is required',
  productCategoryRequired: 'product category is required',
  imageUploadFailed: 'Image file to url convert failed',
  imageUploadSucceeded: 'image url convert success',
  productDeleted: 'This product is deleted',
  paymentCompleted: 'Congrats! Your payment completed',
  userDeleted: (email: string) => `${email} user is deleted successfully`,
  userDeleteFailed: (email: string) => `${email} user is deleted failed`,
  userVerified: (email: string) => `${email} user verify successfully`,
  userVerifyFailed: (serverMessage: string, email: string) => `${serverMessage} ${email} user verified`,
} as const;

/** Fixed texts of the screens in section 2 of the specification. */
export const texts = {
  brand: 'Used Furniture co. Ltd',
  tagline: 'Providing reliable tech since 2000',
  welcomeAdmin: 'Welcome to admin dashboard',
  welcomeOther: 'Welcome to your dashboard',
  loginTitle: 'Login now!',
  signupTitle: 'Register Now !',
  bookingTitle: 'Product Booking',
  wishListTitle: 'Your Wishes List',
  makeAdminTitle: 'Make a new Admin',
  allBuyersTitle: 'All Buyer Data and Status',
  allSellersTitle: 'All Seller Data and Status',
  availableProducts: 'Available Products',
  advertisement: 'Advertisement',
  furnitureCategories: 'Furniture Categories',
  errorTitle: 'Oops!',
  errorSorry: 'Sorry, an unexpected error has occurred',
  errorNotFound: 'This Route is not found, status 404.',
  unavailable: 'Unavailable',
} as const;
