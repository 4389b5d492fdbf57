/**
 * Labels of the screens in section 2 of the specification that the web app shows verbatim:
 * navigation, buttons, field labels and table headings.
 */
export const labels = {
  nav: {
    home: 'Home',
    categories: 'Categories',
    blog: 'Blog',
    dashboard: 'Dashboard',
    logIn: 'Log in',
    signUp: 'Sign up',
    logOut: 'Log out',
  },
  home: {
    getStarted: 'Get Started',
    more: 'More',
    /** Read after More by screen readers and crawlers, so the link says where it leads. */
    moreWhat: 'categories',
  },
  categories: {
    seeProducts: 'See Products',
  },
  product: {
    yearOfUsed: 'Year of Used',
    originalPrice: 'Original Price',
    resalePrice: 'Re-Sale Price',
    wish: 'Wish',
    bookNow: 'Book Now',
  },
  booking: {
    buyerName: 'Buyer Name',
    buyerEmail: 'Buyer Email',
    productName: 'Product Name',
    productPrice: 'Product Price',
    phoneNumber: 'Phone Number',
    meetingLocation: 'Meeting Location',
    cancel: 'Cancel',
    confirm: 'Confirm',
  },
  table: {
    productImage: 'Product Image',
    productTitle: 'Product Title',
    inStock: 'In Stock',
    paymentStatus: 'Payment Status',
    salesStatus: 'Sales Status',
    advertisement: 'Advertisement',
    action: 'Action',
    delete: 'Delete',
    pay: 'Pay',
    order: 'Order',
    add: 'Add',
  },
  userStatus: {
    verified: 'verified',
    pending: 'pending',
  },
  dashboardMenu: {
    myOrders: 'My Orders',
    myWishes: 'My Wishes',
    myProducts: 'My Products',
    addProduct: 'Add Product',
    allBuyers: 'All Buyers',
    allSellers: 'All Sellers',
    addCategory: 'Add Category',
    addAdmin: 'Add Admin',
  },
  login: {
    email: 'Email',
    password: 'Password',
    or: 'OR',
    google: 'Sign in with Google',
    signIn: 'Sign in',
  },
  signup: {
    name: 'Name',
    email: 'Email',
    password: 'Password',
    buyer: 'Buyer',
    seller: 'Seller',
    photo: 'Photo Upload',
    signUp: 'Sign Up',
  },
  payment: {
    pay: 'Pay',
  },
  errorPage: {
    home: 'Home',
  },
} as const;
