/** The contact-us form (SPEC §1, §7 users/contact-us; its fields are Kinora's). */
export const CONTACT_NAME_MAX = 100;
export const CONTACT_MESSAGE_MIN = 10;
export const CONTACT_MESSAGE_MAX = 5000;
export const CONTACT_EMAIL_MAX = 254;

