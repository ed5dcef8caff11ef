// Turns a title into a URL slug: runs of other characters become one dash, none at the ends.
export function slugify(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
