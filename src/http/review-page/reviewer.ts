/** The reviewer's name, kept for this tab (sessionStorage) so each form starts with it. */
const REVIEWER_KEY = 'cosci-review-reviewer';

export function reviewerName(): string {
  return sessionStorage.getItem(REVIEWER_KEY) ?? '';
}

export function rememberReviewer(name: string): void {
  sessionStorage.setItem(REVIEWER_KEY, name);
}
