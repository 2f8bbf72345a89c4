/**
 * "A CSS or DOM selector is checked for validity before use." Parses the
 * selector against an empty fragment, so nothing in the page is searched.
 */
export function isValidSelector(doc: Pick<Document, "createDocumentFragment">, selector: string): boolean {
  try {
    doc.createDocumentFragment().querySelector(selector);
    return true;
  } catch (e) {
    return false;
  }
}
