#!/usr/bin/perl
# The pace car of the Solitaire 500, written again from the page's description of it: "it
# deals cards and then attempts all possible moves until none of them gets an OK response.
# When it has dealt the whole deck, it picks up the cards in a random order. It avoids
# endless loops by counting the number of rounds it has gone without discarding and skipping
# possible moves more and more often as the number of rounds without a discard increases."
#
# Networking as the page asks of every entry: SWP_SERVERNAME, SWP_SERVERPORT and SWP_PASSWORD
# (defaults localhost, 5200, empty), the login name from whoami (or SWP_USERNAME).
use strict;
use warnings;
use Socket;
use IO::Handle;

my $Host = $ENV{SWP_SERVERNAME} || 'localhost';
my $Port = $ENV{SWP_SERVERPORT} || 5200;
my $Password = defined $ENV{SWP_PASSWORD} ? $ENV{SWP_PASSWORD} : '';
my $User = $ENV{SWP_USERNAME} || scalar(getpwuid($<)) || 'pacecar';
srand($ENV{PACECAR_SEED}) if defined $ENV{PACECAR_SEED};

# Connect: reads the server's greeting, logs in, and dies unless the answer begins with OK.
sub Connect {
    my $address = inet_aton($Host) or die "pace car: cannot resolve $Host\n";
    socket(SOCK, PF_INET, SOCK_STREAM, getprotobyname('tcp')) or die "pace car: socket: $!\n";
    connect(SOCK, sockaddr_in($Port, $address)) or die "pace car: connect to $Host:$Port: $!\n";
    SOCK->autoflush(1);
    my $greeting = <SOCK>;
    defined $greeting or die "pace car: the server said nothing\n";
    print SOCK "$User:$Password\n";
    my $answer = <SOCK>;
    die "pace car: login refused: " . (defined $answer ? $answer : "closed\n") unless defined $answer && $answer =~ /^OK/;
    return $answer;
}

my (@Top, $Sets, $Deck, $Decks, $Round);

sub Parse {
    my ($line) = @_;
    $line =~ /^OK (\S\S) (\S\S) (\S\S) (\S\S) time \d+ round (\d+) move \d+ (\d+) sets left in deck (\d+) of (\d+) decks/
        or return 0;
    @Top = ($1, $2, $3, $4);
    ($Round, $Sets, $Deck, $Decks) = ($5, $6, $7, $8);
    return 1;
}

# One command, one answer; true when the server said OK.
sub Try {
    my ($command) = @_;
    print SOCK "$command\n";
    my $answer = <SOCK>;
    die "pace car: the server closed the connection\n" unless defined $answer;
    return Parse($answer);
}

Parse(Connect()) or die "pace car: cannot read the status line\n";
my $dry = 0;          # rounds without a discard
my $discarded = 0;    # discards this round
my @moves = ('discard', '10', '20', '30', '21', '31', '32');
while ("@Top" ne 'FI NI SH ED') {
    my $skip = 1 - 1 / (1 + 0.01 * $dry);
    my $progress = 1;
    while ($progress) {
        $progress = 0;
        for my $move (@moves) {
            next if $move ne 'discard' && rand() < $skip;
            if (Try($move)) {
                $discarded++ if $move eq 'discard';
                $progress = 1;
                last;
            }
        }
    }
    if ($Sets > 0) {
        Try('lay');
    } elsif ("@Top" eq '__ __ __ __') {
        Try('win');
        ($dry, $discarded) = (0, 0);
    } else {
        my @order = (0, 1, 2, 3);
        for (my $i = 3; $i > 0; $i--) {
            my $j = int(rand($i + 1));
            @order[$i, $j] = @order[$j, $i];
        }
        Try(join('', @order));
        $dry = $discarded ? 0 : $dry + 1;
        $discarded = 0;
    }
}
print STDERR "pace car: finished $Decks decks in round $Round\n";
close(SOCK);
