/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chessdata.h: the one public header of libchessdata.
 *
 * It includes every sub-header in chessdata/: base (status codes,
 * errors, version, buffers), board (positions, move generation,
 * validity), fen, san, rules (how a position stands under the FIDE
 * Laws), the readers and writers (pgn_lex, pgn, epd, pgc, json,
 * comment, stream, sniff), and what works on games (collate, select,
 * opening, dedup, polyglot: opening books).
 */
#ifndef CHESSDATA_H
#define CHESSDATA_H

#include <chessdata/base.h>
#include <chessdata/board.h>
#include <chessdata/fen.h>
#include <chessdata/san.h>
#include <chessdata/epd.h>
#include <chessdata/pgn_lex.h>
#include <chessdata/pgn_read.h>
#include <chessdata/pgn.h>
#include <chessdata/collate.h>
#include <chessdata/pgc.h>
#include <chessdata/rules.h>
#include <chessdata/select.h>
#include <chessdata/comment.h>
#include <chessdata/json.h>
#include <chessdata/stream.h>
#include <chessdata/sniff.h>
#include <chessdata/opening.h>
#include <chessdata/dedup.h>
#include <chessdata/timecontrol.h>
#include <chessdata/polyglot.h>

#endif
