// SPDX-License-Identifier: BSD-2-Clause
// bench/chess-library.cpp: the yardstick of bench/chess-library, a PGN
// reader on Disservin's chess-library (chess.hpp, header only, not part
// of chessdata: give its path to the script as CHESS_HPP).
//
// Usage: chess-library split|play FILE
//   split  its StreamParser alone: the games split into tags and move
//          words, games and plies counted (no board, nothing checked);
//   play   the same parser, and every move read with uci::parseSan and
//          made with Board::makeMove (a SAN that does not read or is
//          not legal ends its game: counted as an error).
// Prints "games N plies N errors N" on standard error.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "chess.hpp"

using namespace chess;

class Split : public pgn::Visitor {
   public:
    long games = 0, plies = 0, errors = 0;

    void startPgn() override {}
    void header(std::string_view, std::string_view) override {}
    void startMoves() override {}
    void move(std::string_view, std::string_view) override { plies++; }
    void endPgn() override { games++; }
};

class Play : public pgn::Visitor {
   public:
    long games = 0, plies = 0, errors = 0;

    void startPgn() override {
        board.setFen(constants::STARTPOS);
        failed = false;
    }
    void header(std::string_view key, std::string_view value) override {
        if (key == "FEN") board.setFen(value);
    }
    void startMoves() override {}
    void move(std::string_view san, std::string_view) override {
        if (failed) return;
        // parseSan reads past the end of what is no move ("1-1" from a
        // broken result): such a word ends its game
        if (san.size() < 2 || !((san[0] >= 'a' && san[0] <= 'h') ||
                                 strchr("NBRQKO", san[0]) != nullptr)) {
            failed = true;
            errors++;
            return;
        }
        try {
            board.makeMove(uci::parseSan(board, san));
            plies++;
        } catch (const std::exception &) {
            failed = true;
            errors++;
        }
    }
    void endPgn() override { games++; }

   private:
    Board board;
    bool failed = false;
};

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "split") != 0 && strcmp(argv[1], "play") != 0)) {
        fprintf(stderr, "usage: chess-library split|play FILE\n");
        return 2;
    }
    std::ifstream in(argv[2], std::ios::binary);
    if (!in) {
        fprintf(stderr, "chess-library: cannot open %s\n", argv[2]);
        return 2;
    }
    pgn::StreamParser parser(in);
    long games, plies, errors;
    if (strcmp(argv[1], "split") == 0) {
        Split v;
        parser.readGames(v);
        games = v.games, plies = v.plies, errors = v.errors;
    } else {
        Play v;
        parser.readGames(v);
        games = v.games, plies = v.plies, errors = v.errors;
    }
    fprintf(stderr, "games %ld plies %ld errors %ld\n", games, plies, errors);
    return 0;
}
