'use strict';
// The path of the librift shared library this package carries (copied in by ci.sh before packing).
module.exports = require('path').join(__dirname, 'librift.so.1');
