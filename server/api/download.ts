/**
 * A file the pages open as a link (a PDF ticket, a receipt, a Wallet pass): a fixed file name
 * chosen by the route (nothing of the visitor's, nor the token, goes into a header), never cached.
 */
export function fileDownload(body: Uint8Array, contentType: string, filename: string): Response {
  // a Buffer's memory is an ArrayBuffer (never shared), as a Response body needs
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' },
  });
}
