/** A company entry's menu key: this prefix and the company's id (UserMenu and UserMenuDropdown). */
export const COMPANY_KEY_PREFIX = 'company:';
