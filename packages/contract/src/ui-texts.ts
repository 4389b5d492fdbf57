import { LOADING_PAGE_TEXT } from './web-routes.ts';
import { counted } from './counted.ts';
/**
 * Texts of the web app beyond the specification's own: states, confirmations and explanations
 * that tell people what happened and what they can do next.
 */
export const uiTexts = {
  productMarks: {
    wished: 'Wished',
    booked: 'Booked',
    wishedHint: (productName: string) => `${productName} is in your wish list`,
    bookedHint: (productName: string) => `You have booked ${productName}`,
  },
  confirmDelete: {
    title: (name: string) => `Delete ${name}?`,
    body: 'This cannot be undone.',
    cancel: 'Keep it',
  },
  advertise: {
    action: 'Advertise',
    done: 'Advertised',
    /** Why a sold product offers no Advertise. */
    sold: 'Sold: nothing to advertise',
  },
  orders: {
    meetingPlace: 'Meeting place',
    seller: 'Seller',
    booked: 'Booked on',
    /** A paid order stays as the record of the sale. */
    paidKeeps: 'Kept as your receipt',
    sellerGone: 'The product was removed',
  },
  /** Admin rights are asked for before they are given. */
  confirmMakeAdmin: {
    title: (email: string) => `Make ${email} an admin?`,
    body: 'They will be able to verify and delete accounts, add categories and moderate listings and messages.',
    confirm: 'Make admin',
    cancel: 'Cancel',
  },
  dashboardHome: {
    nextSteps: 'What you can do next',
    orders: (count: number) => counted(count, 'order'),
    unpaidOrders: (count: number) => `${count} waiting for payment`,
    wishes: (count: number) => counted(count, 'wish', 'wishes'),
    products: (count: number) => `${counted(count, 'product')} listed`,
    advertised: (count: number) => `${count} advertised`,
    pendingSellers: (count: number) => `${counted(count, 'seller')} waiting for verification`,
    buyers: (count: number) => counted(count, 'buyer'),
    browse: 'Browse the categories',
    browseHint: 'Find a piece, wish for it or book it.',
    ordersHint: 'Pay for a booking, see where to meet the seller.',
    wishesHint: 'Book a piece you wished for.',
    productsHint: 'Advertise a piece on Home, or remove one.',
    addProductHint: 'List another piece for sale.',
    sellersHint: 'Verify sellers so buyers can trust them.',
    buyersHint: 'See and manage buyer accounts.',
    addCategoryHint: 'Add a kind of furniture.',
    addAdminHint: 'Give another person admin rights.',
  },
  payment: {
    backToOrders: 'Back to My Orders',
    title: (productName: string) => `Payment for ${productName}`,
    /** Split around the price, which the page shows in bold. */
    youPaid: { before: 'You paid ', after: ' for this booking.' },
    pleasePay: { before: 'Please pay ', after: ' for your booking.' },
    transactionId: 'Your transaction id:',
    card: 'Card',
    cardNumber: 'Card number',
    expiry: 'Expiry (MM/YY)',
    expiryPlaceholder: 'MM / YY',
    cvc: 'CVC',
    cardNumberPlaceholder: '1234 1234 1234 1234',
    failed: 'The payment failed.',
    notCompleted: (status: string) => `The payment was not completed (status: ${status}).`,
    loadingCardForm: 'Loading the card form',
    stripeNotSetUp: 'Card payments are not set up on this server.',
    providerUnavailable: (provider: string) => `Card payments with ${provider} are not available in this version of the app.`,
  },
  /** What an empty dashboard list says, and the next step it offers. */
  emptyLists: {
    orders: 'You have no orders yet.',
    ordersHint: 'Book a piece you like and it shows here, ready to pay for.',
    wishes: 'Your wish list is empty.',
    wishesHint: 'Wish for a piece to keep it here until you decide.',
    findFurniture: 'Find furniture',
    products: 'You have not listed any products yet.',
    productsHint: 'List a piece and buyers can find, wish for and book it.',
    addProduct: 'Add a product',
    accounts: 'No accounts yet.',
  },
  /** What a spinner says to screen readers while something loads. */
  loading: 'Loading',
  /** The app's frame around every page: navigation, footer and error page. */
  shell: {
    mainNavigation: 'Main',
    openNavigation: 'Open navigation menu',
    loadingPage: LOADING_PAGE_TEXT,
    pageLoadTimedOut: 'Loading the page timed out. Check your connection and try again.',
    /** While the signed-in person's account cannot be loaded for want of an answer, and is tried again. */
    unreachable: 'We can’t reach the marketplace right now. Trying again…',
    /** A request that got no answer: the network failed, or the session could not be renewed for want of one. */
    noAnswer: 'We can’t reach the marketplace right now. Check your connection and try again.',
    /** While the browser has no network at all. */
    offline: 'You are offline. Nothing you do reaches the marketplace until your connection is back.',
    footerBlurb: 'Pre-loved sofas, tables, beds and chairs from people near you, checked by our team before they go on sale.',
    socialMedia: 'Social media',
    errorIllustration: 'A broken chair',
  },
  home: {
    heroTitle: 'Give good furniture a second home',
    heroText:
      'Find sofas, beds, tables and chairs that people near you no longer need, checked by sellers we verify. Book a piece, meet the seller, and pay safely by card.',
  },
  categories: {
    none: 'No categories yet.',
    noProducts: 'There are no products in this category yet.',
  },
  addCategory: {
    categoryName: 'Category Name',
    categoryImage: 'Category Image',
  },
  /** The labels of a product's details, on its page and on its card. */
  productDetails: {
    condition: 'Condition:',
    seller: 'Seller:',
    location: 'Location:',
    /** How far a piece is from the point a search was near. */
    away: (km: number) => `${km} km away`,
    posted: 'Posted:',
  },
  dashboard: {
    openMenu: 'Open menu',
    closeMenu: 'Close dashboard menu',
    /** The site's own links in the dashboard's drawer. */
    siteNavigation: 'Site',
    backToDashboard: 'Back to the dashboard',
  },
  users: {
    /** The columns of the admin's lists of buyers and sellers. */
    columns: { image: 'Image', name: 'Name', email: 'Email', status: 'Status' },
    noPhoto: 'No photo',
    verify: 'Verify',
    /** The admin's lists are searched on the server, a page at a time. */
    search: 'Search by name or e-mail',
    noMatch: (search: string) => `No account has a name or e-mail containing “${search}”.`,
    pages: 'Pages of accounts',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    pageNumber: (page: number) => `Page ${page}`,
    unverify: 'Take back verification',
    removeAdmin: 'Remove admin rights',
    adminRights: 'Admin rights',
    adminsTitle: 'Admins',
  },
  /** Taking back a verification is asked for first, naming the person. */
  confirmUnverify: {
    title: (name: string, email: string) => `Take back the verification of ${name} (${email})?`,
    body: 'Buyers no longer see them as verified, on their account and on every product they sell.',
    confirm: 'Take back verification',
    cancel: 'Cancel',
  },
  /** Removing admin rights is asked for first, naming the person. */
  confirmRemoveAdmin: {
    title: (name: string, email: string) => `Remove the admin rights of ${name} (${email})?`,
    body: 'They keep their account, orders and listings, but can no longer open the admin pages.',
    confirm: 'Remove admin rights',
    cancel: 'Cancel',
  },
  auth: {
    newHere: 'New here?',
    createAccount: 'Create an account',
    role: 'Role',
    haveAccount: 'Already have an account?',
    /** Linking Google to an existing account, after Google sign-in found it. */
    accountPassword: 'Password of your account',
    linkGoogle: 'Link Google and sign in',
    popupBlocked: 'The sign-in window was blocked. Allow pop-ups for this site and try again.',
  },
  deleteFailed: 'It could not be deleted',
  showPassword: 'Show password',
  imageFile: {
    wrongType: 'Choose a JPEG, PNG, WebP or AVIF image',
    tooLarge: (megabytes: number) => `Choose an image of at most ${megabytes} MB`,
    preview: 'Preview of the chosen image',
  },
  /** Under the disabled Google button when the site has no Google client. */
  googleNotSetUp: 'Google sign-in is not set up on this site. Sign in with your e-mail and password.',
} as const;
