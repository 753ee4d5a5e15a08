// Text to HTML and HTML to text as mailparser does them: when a message's only body is HTML, its
// `text` is html-to-text 9's rendering of it (blocks, line breaks, headings in capitals, links as
// "text [href]", lists, 80-column wrapping); when plain text sits beside HTML outside an
// alternative, its `html` gets the text as paragraphs.
//
// html_to_text ports html-to-text's default formatters and its block builder over a small
// HTML parser with htmlparser2's tree rules; data tables are rendered as blocks (html-to-text's
// default, as no table is selected as a data table). text_to_html leaves out linkify-it's links.
#pragma once

#include <string>
#include <string_view>

namespace rift::smtp {

std::string html_to_text(std::string_view html);

// mailparser's textToHtml: "<p>...</p>", he-encoded (named references), blank lines closing
// paragraphs and single line breaks as <br/>.
std::string text_to_html(std::string_view text);

// he.encode with its defaults: &, <, >, ", ' and ` and everything outside printable ASCII as
// hexadecimal references.
std::string html_escape(std::string_view text);

}  // namespace rift::smtp
